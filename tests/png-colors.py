#!/usr/bin/env python3
"""tests/png-colors.py PNG X0 Y0 X1 Y1 RRGGBB...: for each colour, how many
pixels of the rectangle [X0,X1) x [Y0,Y1) of PNG are within 40 of it (per
channel), one count a line.  Standard library only (no PIL here): 8-bit
RGB or RGBA, non-interlaced, as Chromium's --screenshot writes."""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, 'rb').read(64 * 1024 * 1024)
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'{path}: not a PNG')
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                sys.exit(f'{path}: depth {depth} colour type {ctype}: not handled')
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    path, x0, y0, x1, y1 = sys.argv[1], *map(int, sys.argv[2:6])
    w, h, bpp, rows = pixels(path)
    for hexc in sys.argv[6:]:
        want = [int(hexc[i:i + 2], 16) for i in (0, 2, 4)]
        n = 0
        for y in range(max(0, y0), min(h, y1)):
            row = rows[y]
            for x in range(max(0, x0), min(w, x1)):
                px = row[x * bpp:x * bpp + 3]
                if all(abs(px[i] - want[i]) <= 40 for i in range(3)):
                    n += 1
        print(n)


main()
