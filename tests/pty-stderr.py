#!/usr/bin/env python3
"""pty-stderr.py CAPTURE [--never-read] [--stdout-too] -- COMMAND...: runs
COMMAND with its stderr on a terminal (a pty; stdin and stdout are this
script's), as a person at a terminal runs it, and writes every byte the
terminal got to CAPTURE as it came (the pty is raw: no \\n to \\r\\n).  The
terminal is 120 columns wide.  With --stdout-too COMMAND's stdout is the
same terminal (a person who runs it with nothing redirected: both streams
on one screen).  With --never-read nobody reads the terminal, and its buffer
is filled before COMMAND starts: each write to it would block (a terminal
that stopped scrolling: ^S, a stuck ssh); the bytes that filled it are
said on stderr; CAPTURE gets what the terminal holds once COMMAND is
done (the fill, and what COMMAND got in after it).  SIGTERM and SIGINT are passed on to the
command.  Exits with the command's status (128+N for a signal N)."""
import fcntl
import os
import signal
import struct
import subprocess
import sys
import termios
import tty


def fill(fd):
    """Writes to fd until it would block; returns how much it took."""
    flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    fcntl.fcntl(fd, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    n = 0
    try:
        while n < 64 * 1024 * 1024:
            n += os.write(fd, b"x" * 4096)
    except BlockingIOError:
        pass
    fcntl.fcntl(fd, fcntl.F_SETFL, flags)
    return n


def drain(fd):
    """What fd holds now (the fill, and what got in after it)."""
    os.set_blocking(fd, False)
    got = b""
    while True:
        try:
            data = os.read(fd, 65536)
        except (BlockingIOError, OSError):
            return got
        if not data:
            return got
        got += data


def main():
    args = sys.argv[1:]
    capture = args.pop(0)
    never_read = stdout_too = False
    while args and args[0] in ("--never-read", "--stdout-too"):
        if args.pop(0) == "--never-read":
            never_read = True
        else:
            stdout_too = True
    if not args or args.pop(0) != "--" or not args:
        sys.exit("usage: pty-stderr.py CAPTURE [--never-read] "
                 "[--stdout-too] -- COMMAND...")
    master, slave = os.openpty()
    tty.setraw(slave)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
    if never_read:
        print("pty-stderr.py: %d bytes fill the terminal" % fill(slave),
              file=sys.stderr)
    child = subprocess.Popen(args, stderr=slave,
                             stdout=slave if stdout_too else None)
    os.close(slave)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda s, _f: child.send_signal(s))
    with open(capture, "wb") as out:
        while not never_read:
            try:
                data = os.read(master, 4096)
            except InterruptedError:
                continue
            except OSError:  # EIO: every writer closed the terminal
                break
            if not data:
                break
            out.write(data)
            out.flush()
        while True:
            try:
                rc = child.wait()
                break
            except InterruptedError:
                continue
        if never_read:
            out.write(drain(master))
    sys.exit(128 - rc if rc < 0 else rc)


if __name__ == "__main__":
    main()
