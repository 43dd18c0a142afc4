#!/usr/bin/env python3
"""Prints the share of non-white pixels of a PNG (8-bit RGB/RGBA, non-interlaced), optionally within
a band of rows: png_ink.py FILE [ROW_FROM ROW_TO]. Decodes with zlib only (PNG spec §9 filters).
Importable: pixels(path) and ink_share(rows, bpp, x0, y0, x1, y1)."""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        (length,), kind = struct.unpack(">I", data[pos:pos + 4]), data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, "unsupported PNG"
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, prev, rows = zlib.decompress(idat), width * bpp, bytearray(width * bpp), []
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return rows, bpp


def ink_share(rows, bpp, x0=0, y0=0, x1=None, y1=None):
    """The share of pixels in the box [x0, x1) × [y0, y1) that are not white (any channel < 240)."""
    ink = total = 0
    for line in rows[y0:y1]:
        x_end = len(line) // bpp if x1 is None else min(x1, len(line) // bpp)
        for i in range(x0 * bpp, x_end * bpp, bpp):
            total += 1
            ink += min(line[i], line[i + 1], line[i + 2]) < 240
    return ink / max(total, 1)


if __name__ == "__main__":
    rows, bpp = pixels(sys.argv[1])
    lo, hi = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (0, len(rows))
    print(f"{ink_share(rows, bpp, 0, lo, None, hi):.6f}")
