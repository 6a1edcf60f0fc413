#!/usr/bin/env bash
# Makes the app's icons from static/icons/icon.svg (a Morabaraba board):
# the 192 and 512 px PNGs of the web app manifest and /favicon.ico (16, 32
# and 48 px PNGs in one ICO). Needs rsvg-convert (Debian: librsvg2-bin)
# and Python 3. The results are committed; run this after changing the SVG.
set -euo pipefail
cd "$(dirname "$0")/../static/icons"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rsvg-convert -w 192 -h 192 icon.svg -o icon-192.png
rsvg-convert -w 512 -h 512 icon.svg -o icon-512.png
for s in 16 32 48; do rsvg-convert -w $s -h $s icon.svg -o "$work/$s.png"; done
python3 - "$work" <<'PY'
import struct, sys
work = sys.argv[1]
sizes = [16, 32, 48]
images = [open(f"{work}/{s}.png", "rb").read() for s in sizes]
offset = 6 + 16 * len(sizes)
entries = b""
for size, data in zip(sizes, images):
    entries += struct.pack("<BBBBHHII", size, size, 0, 0, 1, 32, len(data), offset)
    offset += len(data)
with open("favicon.ico", "wb") as f:
    f.write(struct.pack("<HHH", 0, 1, len(sizes)) + entries + b"".join(images))
PY
