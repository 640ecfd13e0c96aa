#!/usr/bin/env python3
"""Draws the web client's PNG icons (web/icons/) from the shapes of web/icon.svg: a
green tile with a city edge, a road and a follower. Plain Python (zlib), no imaging
library: each pixel is the average of 4x4 samples.

    python3 scripts/make-icons.py   # rewrites web/icons/*.png
"""
import math
import os
import struct
import zlib

GREEN = (0x8F, 0xBC, 0x5A)
CITY = (0xC8, 0x92, 0x5A)
ROAD = (0xF4, 0xEF, 0xE4)
FIGURE = (0xE6, 0x9F, 0x00)
OUTLINE = (0x22, 0x22, 0x22)


def inside_rounded(x, y, size, r):
    """The tile: a 32x32 square with corners of radius r (in icon units)."""
    if not (0 <= x <= size and 0 <= y <= size):
        return False
    cx = min(max(x, r), size - r)
    cy = min(max(y, r), size - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def colour_at(x, y, rounded):
    """The colour of the 32x32 design at (x, y), or None outside it."""
    if rounded and not inside_rounded(x, y, 32, 4):
        return None
    if not (0 <= x <= 32 and 0 <= y <= 32):
        return None
    d = math.hypot(x - 16, y - 16)
    if d <= 4 - 0.75:
        return FIGURE
    if d <= 4 + 0.75:
        return OUTLINE
    # the city: the trapezoid (0,0) (32,0) (22,10) (10,10)
    if y <= 10 and x >= y and x <= 32 - y:
        return CITY
    if 14 <= x <= 18 and y >= 18:
        return ROAD
    return GREEN


def draw(px, maskable):
    """RGBA rows of a px-by-px icon. A maskable icon is full bleed (the background
    reaches every edge) with the design in the middle 70%, inside the safe zone."""
    n = 4
    rows = []
    for j in range(px):
        row = bytearray()
        for i in range(px):
            acc = [0, 0, 0, 0]
            for sj in range(n):
                for si in range(n):
                    u = (i + (si + 0.5) / n) / px
                    v = (j + (sj + 0.5) / n) / px
                    if maskable:
                        x, y = (u - 0.15) / 0.7 * 32, (v - 0.15) / 0.7 * 32
                        c = colour_at(x, y, False) or GREEN
                    else:
                        c = colour_at(u * 32, v * 32, True)
                    if c is None:
                        continue
                    acc[0] += c[0]
                    acc[1] += c[1]
                    acc[2] += c[2]
                    acc[3] += 255
            k = n * n
            a = acc[3] // k
            if a == 0:
                row += bytes(4)
            else:
                cov = acc[3] / 255
                row += bytes([int(acc[0] / cov), int(acc[1] / cov), int(acc[2] / cov), a])
        rows.append(bytes(row))
    return rows


def png(rows, px):
    def chunk(tag, data):
        c = struct.pack(">I", len(data)) + tag + data
        return c + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + r for r in rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", px, px, 8, 6, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main():
    out = os.path.join(os.path.dirname(__file__), "..", "web", "icons")
    os.makedirs(out, exist_ok=True)
    for name, px, maskable in [
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
        ("apple-touch-icon.png", 180, True),
    ]:
        with open(os.path.join(out, name), "wb") as f:
            f.write(png(draw(px, maskable), px))
        print(name)


if __name__ == "__main__":
    main()
