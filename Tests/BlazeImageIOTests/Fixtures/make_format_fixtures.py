#!/usr/bin/env python3
"""Writes the WebP, TIFF, GIF, BMP and PNM test fixtures and formats.json next to this script.

Run from the repository root with Pillow pinned by requirements-fixtures.txt (Pillow's wheels bring their own
libwebp and libtiff encoders):

    python3 -m venv .venv-fixtures && .venv-fixtures/bin/pip install -r Tests/BlazeImageIOTests/Fixtures/requirements-fixtures.txt
    .venv-fixtures/bin/python Tests/BlazeImageIOTests/Fixtures/make_format_fixtures.py

Deterministic for a given Pillow. The outputs are committed (a few KB each), so the Swift tests need no Python.

- Pictures are small gradients (24x16; 64x48 for lossy WebP) made here, so exact formats have exact expected
  pixels computed from the source samples, cross-checked against Pillow's decoding where Pillow keeps them.
- Lossy WebP's expected pixels are Pillow's own decoding (libwebp, as ours), compared with a tolerance.
- A few layouts Pillow does not write (16-bit RGB TIFF, associated alpha, tiles, big-endian TIFF, 16-bit PPM,
  ASCII PNM) are written by the tiny writers below; damaged files (truncated, garbled, impossible sizes) are
  derived from good ones.

formats.json has the layout of expected.json: "images" (file, width, height, format, orientation, tolerance,
pixels as base64, or samePixelsAs: the file whose entry has them) and "errors" (file, ImageIOError case, and the
size for tooLarge).
"""

import base64
import io
import json
import os
import struct
import sys

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
PREFIXES = ("webp_", "tiff_", "gif_", "bmp_", "pnm_")
images, errors = [], []
first_with = {}  # decoded pixels -> the first fixture that has them


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
    return data


def expect(name, width, height, fmt, pixels, orientation=1, tolerance=0):
    channels = {"gray8": 1, "rgb8": 3, "rgba8": 4}[fmt]
    pixels = bytes(pixels)
    assert len(pixels) == width * height * channels, (name, len(pixels))
    entry = {"file": name, "width": width, "height": height, "format": fmt, "orientation": orientation,
             "tolerance": tolerance}
    if pixels in first_with:  # the same pixels as an earlier fixture: named, not repeated
        entry["samePixelsAs"] = first_with[pixels]
    else:
        entry["pixels"] = base64.b64encode(pixels).decode("ascii")
        first_with[pixels] = name
    images.append(entry)


def expect_error(name, error, **details):
    entry = {"file": name, "error": error}
    entry.update(details)
    errors.append(entry)


def encode(image, fmt, **options):
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def pillow_pixels(data, mode):
    with Image.open(io.BytesIO(data)) as im:
        im.seek(0)
        return im.convert(mode).tobytes()


def check(data, mode, expected):
    assert pillow_pixels(data, mode) == bytes(expected), "Pillow disagrees with the generator"


W, H = 24, 16


def rgb_picture(w=W, h=H, smooth=False):
    """Gradients in red and green; blue wraps around (sharp edges) unless `smooth` (for lossy coding)."""
    im = Image.new("RGB", (w, h))
    blue = (lambda x, y: (x + y) * 2) if smooth else (lambda x, y: (x * 7 + y * 13) % 256)
    im.putdata([((x * 255) // (w - 1), (y * 255) // (h - 1), blue(x, y)) for y in range(h) for x in range(w)])
    return im


def rgba_picture(w=W, h=H):
    im = Image.new("RGBA", (w, h))
    im.putdata([((x * 255) // (w - 1), (y * 255) // (h - 1), (x * 7 + y * 13) % 256, (x * 11 + y * 17) % 256)
                for y in range(h) for x in range(w)])
    return im


def exif_orientation(value):
    exif = Image.Exif()
    exif[0x0112] = value
    return exif.tobytes()


# MARK: - WebP


def webp_fixtures():
    rgb, rgba = rgb_picture(), rgba_picture()
    data = write("webp_lossless_rgb.webp", encode(rgb, "WEBP", lossless=True))
    expect("webp_lossless_rgb.webp", W, H, "rgb8", rgb.tobytes())
    check(data, "RGB", rgb.tobytes())
    # exact=True keeps the colour under fully transparent pixels.
    data = write("webp_lossless_rgba.webp", encode(rgba, "WEBP", lossless=True, exact=True))
    expect("webp_lossless_rgba.webp", W, H, "rgba8", rgba.tobytes())
    check(data, "RGBA", rgba.tobytes())
    data = write("webp_exif6.webp", encode(rgb, "WEBP", lossless=True, exif=exif_orientation(6)))
    expect("webp_exif6.webp", W, H, "rgb8", rgb.tobytes(), orientation=6)

    big = rgb_picture(64, 48, smooth=True)
    data = write("webp_lossy.webp", encode(big, "WEBP", quality=90, method=4))
    expect("webp_lossy.webp", 64, 48, "rgb8", pillow_pixels(data, "RGB"), tolerance=3)
    write("webp_lossless_64x48.webp", encode(big, "WEBP", lossless=True))  # the same picture, exact
    expect("webp_lossless_64x48.webp", 64, 48, "rgb8", big.tobytes())
    data = write("webp_lossy_alpha.webp", encode(rgba, "WEBP", quality=90, alpha_quality=100))
    expect("webp_lossy_alpha.webp", W, H, "rgba8", pillow_pixels(data, "RGBA"), tolerance=3)

    # An animation of two frames: the first is the picture.
    second = Image.new("RGB", (W, H), (10, 200, 30))
    data = write("webp_animated.webp", encode(rgb, "WEBP", save_all=True, append_images=[second], lossless=True,
                                              duration=100, loop=0))
    flags = data[20]
    assert data[12:16] == b"VP8X" and flags & 0x02, "not an animated WebP"
    if flags & 0x10:
        expect("webp_animated.webp", W, H, "rgba8", rgb.convert("RGBA").tobytes())
    else:
        expect("webp_animated.webp", W, H, "rgb8", rgb.tobytes())
    check(data, "RGB", rgb.tobytes())

    # Damaged: cut in half; the VP8L bitstream garbled after its header; sizes that are refused.
    good = open(os.path.join(HERE, "webp_lossless_rgb.webp"), "rb").read()
    write("webp_truncated.webp", good[:len(good) // 2])
    expect_error("webp_truncated.webp", "truncated")
    bad = bytearray(good)
    for i in range(30, len(bad)):
        bad[i] = (i * 73 + 5) % 256
    write("webp_corrupt.webp", bytes(bad))
    expect_error("webp_corrupt.webp", "corrupt")
    # VP8L header: 0x2F, then 14 bits width - 1, 14 bits height - 1, alpha, version (little-endian bits).
    at = good.index(b"VP8L") + 8
    assert good[at] == 0x2F
    bits = struct.unpack("<I", good[at + 1:at + 5])[0]
    bits = (bits & ~0x0FFFFFFF) | 16382 | (16382 << 14)
    write("webp_huge.webp", good[:at + 1] + struct.pack("<I", bits) + good[at + 5:])
    expect_error("webp_huge.webp", "tooLarge", width=16383, height=16383)
    # The animation's canvas (VP8X: 24-bit width - 1 and height - 1 at offsets 24 and 27) made 30000 x 30000.
    anim = bytearray(open(os.path.join(HERE, "webp_animated.webp"), "rb").read())
    anim[24:27] = (30000 - 1).to_bytes(3, "little")
    anim[27:30] = (30000 - 1).to_bytes(3, "little")
    write("webp_huge_canvas.webp", bytes(anim))
    expect_error("webp_huge_canvas.webp", "tooLarge", width=30000, height=30000)


# MARK: - TIFF


def tiff_file(width, height, samples, bits, photometric, data, big_endian=False, extra=None, orientation=None,
              tile=None, height_field=None, data_after_ifd=False):
    """A minimal uncompressed TIFF: one strip (or square tiles of `tile` pixels), `data` already laid out, placed
    before the IFD (or after it and its long values, with `data_after_ifd`). `height_field` overrides the
    declared height (and rows per strip)."""
    e = ">" if big_endian else "<"
    declared = height if height_field is None else height_field
    entries = [(256, 4, [width]), (257, 4, [declared]), (258, 3, [bits] * samples), (259, 3, [1]),
               (262, 3, [photometric]), (277, 3, [samples])]
    if orientation is not None:
        entries.append((274, 3, [orientation]))
    if extra is not None:
        entries.append((338, 3, [extra]))
    if tile is None:
        pieces = [(0, len(data))]
        entries += [(278, 4, [declared])]
    else:
        tiles_across, tiles_down = -(-width // tile), -(-height // tile)
        size = tile * tile * samples * bits // 8
        assert len(data) == tiles_across * tiles_down * size
        pieces = [(i * size, size) for i in range(tiles_across * tiles_down)]
        entries += [(322, 4, [tile]), (323, 4, [tile])]
    offsets_tag, counts_tag = (273, 279) if tile is None else (324, 325)
    entries += [(offsets_tag, 4, [0] * len(pieces)), (counts_tag, 4, [c for _, c in pieces])]
    entries.sort()
    ifd_size = 2 + 12 * len(entries) + 4
    tail_size = sum(len(v) * (2 if k == 3 else 4) for _, k, v in entries if len(v) * (2 if k == 3 else 4) > 4)
    padded = len(data) + (len(data) & 1)
    if data_after_ifd:
        ifd_at, data_at = 8, 8 + ifd_size + tail_size
    else:
        ifd_at, data_at = 8 + padded, 8
    entries = [(t, k, [data_at + o for o, _ in pieces] if t == offsets_tag else v) for t, k, v in entries]
    tail_at = ifd_at + ifd_size
    ifd, tail = struct.pack(e + "H", len(entries)), b""
    for tag, kind, values in entries:
        packed = b"".join(struct.pack(e + {3: "H", 4: "I"}[kind], v) for v in values)
        if len(packed) <= 4:
            field = packed + bytes(4 - len(packed))
        else:
            field = struct.pack(e + "I", tail_at + len(tail))
            tail += packed
        ifd += struct.pack(e + "HHI", tag, kind, len(values)) + field
    ifd += struct.pack(e + "I", 0)
    magic = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, ifd_at)
    body = data + bytes(len(data) & 1)
    return magic + (ifd + tail + body if data_after_ifd else body + ifd + tail)


def bigtiff_file(width, height, data):
    """A minimal little-endian BigTIFF (version 43): 8-bit RGB, one uncompressed strip after the IFD."""
    entries = [(256, 4, width), (257, 4, height), (258, 3, 8), (259, 3, 1), (262, 3, 2), (273, 16, 0),
               (277, 3, 3), (278, 4, height), (279, 16, len(data))]
    ifd_size = 8 + 20 * len(entries) + 8
    data_at = 16 + ifd_size
    ifd = struct.pack("<Q", len(entries))
    for tag, kind, value in entries:
        value = data_at if tag == 273 else value
        # BitsPerSample has 3 values: 3 SHORTs fit in the 8-byte field.
        count, field = (3, struct.pack("<HHHH", 8, 8, 8, 0)) if tag == 258 else (1, struct.pack("<Q", value))
        ifd += struct.pack("<HHQ", tag, kind, count) + field
    ifd += struct.pack("<Q", 0)
    return b"II" + struct.pack("<HHHQ", 43, 8, 0, 16) + ifd + data


def tiff_fixtures():
    rgb, rgba = rgb_picture(), rgba_picture()
    flat = rgb.tobytes()
    data = write("tiff_rgb_lzw.tif", encode(rgb, "TIFF", compression="tiff_lzw"))
    expect("tiff_rgb_lzw.tif", W, H, "rgb8", flat)
    check(data, "RGB", flat)
    data = write("tiff_rgb_be.tif", tiff_file(W, H, 3, 8, 2, flat, big_endian=True))
    expect("tiff_rgb_be.tif", W, H, "rgb8", flat)
    check(data, "RGB", flat)
    gray = rgb.convert("L")
    data = write("tiff_gray.tif", encode(gray, "TIFF", compression="tiff_adobe_deflate"))
    expect("tiff_gray.tif", W, H, "gray8", gray.tobytes())
    check(data, "L", gray.tobytes())
    # Unassociated alpha (ExtraSamples = 2), as Pillow writes RGBA: straight samples back.
    data = write("tiff_rgba.tif", encode(rgba, "TIFF", compression="tiff_lzw"))
    expect("tiff_rgba.tif", W, H, "rgba8", rgba.tobytes())
    check(data, "RGBA", rgba.tobytes())
    # Associated (premultiplied) alpha: divided back out, c * 255 / a rounded.
    px = list(rgba.getdata())
    premultiplied = bytes(s for (r, g, b, a) in px for s in ((r * a + 127) // 255, (g * a + 127) // 255,
                                                              (b * a + 127) // 255, a))
    write("tiff_rgba_associated.tif", tiff_file(W, H, 4, 8, 2, premultiplied, extra=1))
    straight = bytes(s for i in range(0, len(premultiplied), 4) for s in (
        *(min(255, (premultiplied[i + c] * 255 + premultiplied[i + 3] // 2) // premultiplied[i + 3])
          if premultiplied[i + 3] else 0 for c in range(3)), premultiplied[i + 3]))
    expect("tiff_rgba_associated.tif", W, H, "rgba8", straight)
    # Palette.
    pal = rgb.quantize(colors=32, dither=Image.Dither.NONE)
    data = write("tiff_palette.tif", encode(pal, "TIFF", compression="packbits"))
    expect("tiff_palette.tif", W, H, "rgb8", pal.convert("RGB").tobytes())
    check(data, "RGB", pal.convert("RGB").tobytes())
    # Bilevel (1 bit, min-is-white as Pillow writes it, CCITT group 4).
    bilevel = Image.new("1", (W, H))
    bilevel.putdata([255 if (x // 3 + y // 2) % 2 else 0 for y in range(H) for x in range(W)])
    data = write("tiff_bilevel.tif", encode(bilevel, "TIFF", compression="group4"))
    expect("tiff_bilevel.tif", W, H, "gray8", bilevel.convert("L").tobytes())
    check(data, "L", bilevel.convert("L").tobytes())
    # 16-bit gray and RGB as libtiff's RGBA interface reduces them: colour rounded (n / 257), gray by its high byte.
    g16 = [(x * 2731 + y * 4099 + 0x80) % 65536 for y in range(H) for x in range(W)]
    write("tiff_gray16.tif", tiff_file(W, H, 1, 16, 1, b"".join(struct.pack("<H", v) for v in g16)))
    expect("tiff_gray16.tif", W, H, "gray8", [v >> 8 for v in g16])
    c16 = [(x * 2731 + y * 4099 + c * 12345 + 0x80) % 65536 for y in range(H) for x in range(W) for c in range(3)]
    write("tiff_rgb16_be.tif", tiff_file(W, H, 3, 16, 2, b"".join(struct.pack(">H", v) for v in c16), big_endian=True))
    expect("tiff_rgb16_be.tif", W, H, "rgb8", [(v + 128) // 257 for v in c16])
    # CMYK (8-bit, ink values): libtiff's conversion R = (255 - K) * (255 - C) / 255, rounded down.
    cmyk = [((x * 10) % 256, (y * 15) % 256, ((x + y) * 5) % 256, (x * y) % 128) for y in range(H) for x in range(W)]
    write("tiff_cmyk.tif", tiff_file(W, H, 4, 8, 5, bytes(s for p in cmyk for s in p)))
    expect("tiff_cmyk.tif", W, H, "rgb8", [(255 - k) * (255 - v) // 255 for (c, m, y, k) in cmyk for v in (c, m, y)])
    # Tiled (16 x 16 tiles, padded).
    tiles = b""
    for ty in range(0, H, 16):
        for tx in range(0, W, 16):
            for y in range(ty, ty + 16):
                for x in range(tx, tx + 16):
                    tiles += bytes(rgb.getpixel((x, y))) if x < W and y < H else b"\0\0\0"
    data = write("tiff_tiled.tif", tiff_file(W, H, 3, 8, 2, tiles, tile=16))
    expect("tiff_tiled.tif", W, H, "rgb8", flat)
    check(data, "RGB", flat)
    # A tile larger than the picture (valid: 48 x 48 tiles over 20 x 12 gray pixels).
    small = gray.crop((0, 0, 20, 12))
    tile = bytes(small.getpixel((x, y)) if x < 20 and y < 12 else 0 for y in range(48) for x in range(48))
    write("tiff_tile_past_image.tif", tiff_file(20, 12, 1, 8, 1, tile, tile=48))
    expect("tiff_tile_past_image.tif", 20, 12, "gray8", small.tobytes())
    # The Orientation tag (6: the stored picture must be turned clockwise), reported, not applied.
    write("tiff_orientation6.tif", tiff_file(W, H, 3, 8, 2, flat, orientation=6))
    expect("tiff_orientation6.tif", W, H, "rgb8", flat, orientation=6)
    write("tiff_orientation8_be.tif", tiff_file(W, H, 3, 8, 2, flat, big_endian=True, orientation=8))
    expect("tiff_orientation8_be.tif", W, H, "rgb8", flat, orientation=8)
    # BigTIFF.
    data = write("tiff_bigtiff.tif", bigtiff_file(W, H, flat))
    check(data, "RGB", flat)
    expect("tiff_bigtiff.tif", W, H, "rgb8", flat)
    # JPEG-compressed (YCbCr inside, as scanners write): libtiff's libjpeg, against Pillow's decoding (also libtiff).
    data = write("tiff_jpeg.tif", encode(rgb_picture(smooth=True), "TIFF", compression="jpeg", quality=90))
    expect("tiff_jpeg.tif", W, H, "rgb8", pillow_pixels(data, "RGB"), tolerance=3)
    # Two pages: the first one is read.
    second = Image.new("RGB", (8, 8), (1, 2, 3))
    data = write("tiff_two_pages.tif", encode(rgb, "TIFF", save_all=True, append_images=[second], compression="tiff_lzw"))
    expect("tiff_two_pages.tif", W, H, "rgb8", flat)

    # Damaged.
    good = open(os.path.join(HERE, "tiff_rgb_lzw.tif"), "rb").read()
    # Uncompressed, the IFD first, cut in the middle of the strip.
    front = tiff_file(W, H, 3, 8, 2, flat, data_after_ifd=True)
    write("tiff_truncated.tif", front[:len(front) - len(flat) // 2])
    expect_error("tiff_truncated.tif", "truncated")
    # The LZW strip garbled (Pillow's writer puts the strip at offset 8, before the IFD).
    bad = bytearray(good)
    for i in range(10, 200):
        bad[i] = (i * 151 + 7) % 256
    write("tiff_corrupt.tif", bytes(bad))
    expect_error("tiff_corrupt.tif", "corrupt")
    # Tiles of 4096 x 16 declared for 16 x 16 pixels: refused before libtiff allocates such a tile.
    wide = bytearray(tiff_file(16, 16, 1, 8, 1, bytes(256), tile=16))
    at = wide.index(struct.pack("<HHI", 322, 4, 1))
    wide[at + 8:at + 12] = struct.pack("<I", 4096)
    write("tiff_tile_huge.tif", bytes(wide))
    expect_error("tiff_tile_huge.tif", "corrupt")
    write("tiff_huge.tif", tiff_file(100000, H, 3, 8, 2, flat, height_field=100000))
    expect_error("tiff_huge.tif", "tooLarge", width=100000, height=100000)


# MARK: - GIF


def gif_image_descriptor(data):
    """The offset of the first image descriptor (0x2C): after the header, the global table and extensions."""
    at = 13 + (3 * 2 ** ((data[10] & 7) + 1) if data[10] & 0x80 else 0)
    while data[at] == 0x21:  # an extension: label, then sub-blocks up to a zero length
        at += 2
        while data[at]:
            at += data[at] + 1
        at += 1
    assert data[at] == 0x2C
    return at


def gif_fixtures():
    rgb = rgb_picture()
    pal = rgb.quantize(colors=64, dither=Image.Dither.NONE)
    flat = pal.convert("RGB").tobytes()
    data = write("gif_palette.gif", encode(pal, "GIF", interlace=False))
    expect("gif_palette.gif", W, H, "rgb8", flat)
    check(data, "RGB", flat)
    data = write("gif_interlaced.gif", encode(pal, "GIF", interlace=True))
    assert data[gif_image_descriptor(data) + 9] & 0x40, "not interlaced"
    expect("gif_interlaced.gif", W, H, "rgb8", flat)
    check(data, "RGB", flat)
    # A transparent index: index 0's pixels come out as 0, 0, 0, 0.
    index = list(pal.getdata())
    data = write("gif_transparent.gif", encode(pal, "GIF", transparency=index[0], interlace=False))
    rgba = bytes(s for i, p in zip(index, pal.convert("RGB").getdata())
                 for s in ((0, 0, 0, 0) if i == index[0] else (*p, 255)))
    expect("gif_transparent.gif", W, H, "rgba8", rgba)
    # Two frames: the first one.
    second = Image.new("RGB", (W, H), (200, 10, 10)).quantize(colors=2)
    data = write("gif_animated.gif", encode(pal, "GIF", save_all=True, append_images=[second], duration=100,
                                            interlace=False))
    expect("gif_animated.gif", W, H, "rgb8", flat)
    # The frame placed at (3, 2) of a 30 x 20 screen: the rest is transparent.
    good = bytearray(open(os.path.join(HERE, "gif_palette.gif"), "rb").read())
    desc = gif_image_descriptor(good)
    assert struct.unpack("<HHHH", good[desc + 1:desc + 9]) == (0, 0, W, H)
    placed = bytearray(good)
    placed[6:10] = struct.pack("<HH", 30, 20)
    placed[desc + 1:desc + 5] = struct.pack("<HH", 3, 2)
    write("gif_placed.gif", bytes(placed))
    canvas = bytearray(30 * 20 * 4)
    for y in range(H):
        for x in range(W):
            at = ((y + 2) * 30 + x + 3) * 4
            canvas[at:at + 4] = bytes((*flat[(y * W + x) * 3:(y * W + x) * 3 + 3], 255))
    expect("gif_placed.gif", 30, 20, "rgba8", canvas)
    # A screen smaller than the frame: enlarged to hold it.
    small = bytearray(good)
    small[6:10] = struct.pack("<HH", 10, 5)
    write("gif_small_screen.gif", bytes(small))
    expect("gif_small_screen.gif", W, H, "rgb8", flat)

    write("gif_truncated.gif", bytes(good[:desc + 10 + (len(good) - desc) // 2]))
    expect_error("gif_truncated.gif", "truncated")
    bad = bytearray(good)
    bad[desc + 10] = 11  # an LZW minimum code size above 8
    write("gif_corrupt.gif", bytes(bad))
    expect_error("gif_corrupt.gif", "corrupt")
    huge = bytearray(good)
    huge[6:10] = struct.pack("<HH", 65535, 65535)
    write("gif_huge.gif", bytes(huge))
    expect_error("gif_huge.gif", "tooLarge", width=65535, height=65535)


# MARK: - BMP


def bmp_fixtures():
    rgb, rgba = rgb_picture(), rgba_picture()
    data = write("bmp_rgb24.bmp", encode(rgb, "BMP"))
    expect("bmp_rgb24.bmp", W, H, "rgb8", rgb.tobytes())
    check(data, "RGB", rgb.tobytes())
    # Pillow writes RGBA as 32-bit BI_RGB with the alpha in the fourth byte (and reads it back as RGB only).
    data = write("bmp_rgba32.bmp", encode(rgba, "BMP"))
    expect("bmp_rgba32.bmp", W, H, "rgba8", rgba.tobytes())
    check(data, "RGB", rgba.convert("RGB").tobytes())
    pal = rgb.quantize(colors=40, dither=Image.Dither.NONE)
    data = write("bmp_palette8.bmp", encode(pal, "BMP"))
    expect("bmp_palette8.bmp", W, H, "rgb8", pal.convert("RGB").tobytes())
    check(data, "RGB", pal.convert("RGB").tobytes())
    bilevel = Image.new("1", (W, H))
    bilevel.putdata([255 if (x + y) % 3 else 0 for y in range(H) for x in range(W)])
    data = write("bmp_1bit.bmp", encode(bilevel, "BMP"))
    expect("bmp_1bit.bmp", W, H, "rgb8", bilevel.convert("RGB").tobytes())
    check(data, "RGB", bilevel.convert("RGB").tobytes())

    good = open(os.path.join(HERE, "bmp_rgb24.bmp"), "rb").read()
    write("bmp_truncated.bmp", good[:len(good) // 2])
    expect_error("bmp_truncated.bmp", "truncated")
    # 20000 x 6000 = 1.2 * 10^8 pixels: past the default limit, under FFmpeg's own.
    write("bmp_huge.bmp", good[:18] + struct.pack("<ii", 20000, 6000) + good[26:])
    expect_error("bmp_huge.bmp", "tooLarge", width=20000, height=6000)
    bad = bytearray(good)
    bad[14:18] = struct.pack("<I", 7)  # a DIB header of 7 bytes: no such version
    write("bmp_corrupt.bmp", bytes(bad))
    expect_error("bmp_corrupt.bmp", "corrupt")


# MARK: - PNM


def pnm_fixtures():
    rgb = rgb_picture()
    gray = rgb.convert("L")
    data = write("pnm_p6.ppm", encode(rgb, "PPM"))
    expect("pnm_p6.ppm", W, H, "rgb8", rgb.tobytes())
    check(data, "RGB", rgb.tobytes())
    data = write("pnm_p5.pgm", encode(gray, "PPM"))
    expect("pnm_p5.pgm", W, H, "gray8", gray.tobytes())
    check(data, "L", gray.tobytes())
    bits = [1 if (x // 2 + y) % 3 == 0 else 0 for y in range(H) for x in range(W)]  # 1 is black
    packed = bytes(int("".join(str(b) for b in bits[y * W + x:y * W + x + 8]).ljust(8, "0"), 2)
                   for y in range(H) for x in range(0, W, 8))
    data = write("pnm_p4.pbm", b"P4\n%d %d\n" % (W, H) + packed)
    expect("pnm_p4.pbm", W, H, "gray8", [0 if b else 255 for b in bits])
    check(data, "L", [0 if b else 255 for b in bits])
    # ASCII: comments, odd spacing, maxval 100 (scaled to 255, rounded).
    samples = list(rgb.tobytes())
    text = "P3\n# a comment\n%d %d\n255\n" % (W, H) + "\n".join(
        " ".join(str(v) for v in samples[i:i + 12]) for i in range(0, len(samples), 12)) + "\n"
    data = write("pnm_p3.ppm", text.encode())
    expect("pnm_p3.ppm", W, H, "rgb8", samples)
    check(data, "RGB", samples)
    g100 = [(x * 4 + y * 3) % 101 for y in range(H) for x in range(W)]
    text = "P2\n%d %d # size\n100\n" % (W, H) + "\n".join(
        "  ".join(str(v) for v in g100[i:i + W]) for i in range(0, len(g100), W)) + "\n"
    write("pnm_p2.pgm", text.encode())
    expect("pnm_p2.pgm", W, H, "gray8", [(v * 255 + 50) // 100 for v in g100])
    text = "P1\n%d %d\n" % (W, H) + "\n".join("".join(str(b) for b in bits[i:i + W]) for i in range(0, len(bits), W))
    data = write("pnm_p1.pbm", text.encode() + b"\n")
    expect("pnm_p1.pbm", W, H, "gray8", [0 if b else 255 for b in bits])
    check(data, "L", [0 if b else 255 for b in bits])
    # 16 bits (maxval 65535): rounded to 8 bits as PNG's 16-bit samples are.
    g16 = [(x * 2731 + y * 4099 + 0x80) % 65536 for y in range(H) for x in range(W)]
    write("pnm_p5_16.pgm", b"P5\n%d %d\n65535\n" % (W, H) + b"".join(struct.pack(">H", v) for v in g16))
    expect("pnm_p5_16.pgm", W, H, "gray8", [(v * 255 + 32767) // 65535 for v in g16])
    c16 = [(x * 2731 + y * 4099 + c * 12345 + 0x80) % 65536 for y in range(H) for x in range(W) for c in range(3)]
    write("pnm_p6_16.ppm", b"P6\n%d %d\n65535\n" % (W, H) + b"".join(struct.pack(">H", v) for v in c16))
    expect("pnm_p6_16.ppm", W, H, "rgb8", [(v * 255 + 32767) // 65535 for v in c16])

    good = open(os.path.join(HERE, "pnm_p6.ppm"), "rb").read()
    write("pnm_truncated.ppm", good[:len(good) // 2])
    expect_error("pnm_truncated.ppm", "corrupt")  # FFmpeg cannot tell a cut-off PNM from a damaged one
    write("pnm_huge.pgm", b"P5\n20000 6000\n255\n" + bytes(64))
    expect_error("pnm_huge.pgm", "tooLarge", width=20000, height=6000)
    write("pnm_corrupt.ppm", b"P6\n24 16\n0\n" + bytes(64))  # maxval 0
    expect_error("pnm_corrupt.ppm", "corrupt")


def main():
    for name in os.listdir(HERE):
        if name.startswith(PREFIXES):
            os.remove(os.path.join(HERE, name))
    webp_fixtures()
    tiff_fixtures()
    gif_fixtures()
    bmp_fixtures()
    pnm_fixtures()
    import PIL
    manifest = {"generator": "Tests/BlazeImageIOTests/Fixtures/make_format_fixtures.py", "pillow": PIL.__version__,
                "images": images, "errors": errors}
    with open(os.path.join(HERE, "formats.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    names = [n for n in os.listdir(HERE) if n.startswith(PREFIXES)]
    total = sum(os.path.getsize(os.path.join(HERE, n)) for n in names)
    largest = max(names, key=lambda n: os.path.getsize(os.path.join(HERE, n)))
    print(f"{len(images)} images, {len(errors)} error cases, {len(names)} files, {total} bytes "
          f"(largest {largest}: {os.path.getsize(os.path.join(HERE, largest))})")


if __name__ == "__main__":
    sys.exit(main())
