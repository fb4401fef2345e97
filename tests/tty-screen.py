#!/usr/bin/env python3
"""tty-screen.py CAPTURE: prints what a terminal shows once it has drawn
the bytes in CAPTURE (pty-stderr.py's), one screen line a line, with no
scrolling limit: a carriage return goes back to the line's start, ESC [K
erases to its end, a newline starts the next line.  Any other control
byte or escape sequence is an error (exit 1, naming its offset): the
progress line uses these three only."""
import sys


def main():
    data = open(sys.argv[1], "rb").read()
    lines, line, col, i = [], [], 0, 0
    while i < len(data):
        b = data[i]
        if b == 0x0D:
            col = 0
        elif b == 0x0A:
            lines.append(bytes(line))
            line, col = [], 0
        elif data[i:i + 3] == b"\x1b[K":
            del line[col:]
            i += 2
        elif b < 0x20 or b == 0x7F:
            sys.exit("tty-screen.py: byte %d: control 0x%02x" % (i, b))
        else:
            if col < len(line):
                line[col] = b
            else:
                line.append(b)
            col += 1
        i += 1
    if line:
        lines.append(bytes(line))
    for ln in lines:
        sys.stdout.write(ln.decode("utf-8", "replace") + "\n")


if __name__ == "__main__":
    main()
