#!/usr/bin/env python3
"""Writes the BlazeImageIO test fixtures and expected.json next to this script.

Run from the repository root with the golden-generation venv (Pillow 12):

    .venv-goldens/bin/python Tests/BlazeImageIOTests/Fixtures/make_fixtures.py

Deterministic: the same Pillow and libjpeg give byte-identical files. The outputs are committed, so the
Swift tests need no Python.

- PNGs are written by the small encoder below (not Pillow), which covers every colour type and bit depth,
  tRNS, Adam7 interlacing, all five row filters and eXIf; their expected pixels are computed here from the
  source samples (exact), and cross-checked against Pillow's decoding where Pillow keeps the samples.
- JPEGs are written by Pillow; their expected pixels are Pillow's own decoding of the same file (libjpeg
  with the default islow IDCT and fancy upsampling), compared in Swift with a tolerance of 2.
- Damaged files (truncated, bad CRC, garbage, impossible headers) are derived from the good ones.

expected.json lists "images" (file, width, height, format, orientation, tolerance and the decoded pixels
as base64, rows top first) and "errors" (file and the ImageIOError case it must raise), and "samples": a few
pixels of the sample pictures in Models/samples (if present) as Pillow decodes them.
"""

import base64
import io
import json
import os
import struct
import sys
import warnings
import zlib

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SAMPLES = os.path.join(ROOT, "Models", "samples")

images = []  # expected.json "images"
errors = []  # expected.json "errors"


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
    return data


def b64(data):
    return base64.b64encode(bytes(data)).decode("ascii")


def expect(name, width, height, fmt, pixels, orientation=1, tolerance=0):
    channels = {"gray8": 1, "rgb8": 3, "rgba8": 4}[fmt]
    assert len(pixels) == width * height * channels, (name, len(pixels))
    images.append({
        "file": name, "width": width, "height": height, "format": fmt, "orientation": orientation,
        "tolerance": tolerance, "pixels": b64(pixels),
    })


def expect_error(name, error, **details):
    entry = {"file": name, "error": error}
    entry.update(details)
    errors.append(entry)


# MARK: - A small PNG encoder


def chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # PNG colour type -> samples per pixel
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def pack_row(samples, depth):
    """Packs one row of integer samples at `depth` bits, big-endian, MSB-first for sub-byte depths."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        bits += depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_rows(rows, bpp):
    """Filters rows with types 0..4 in turn (row y uses y % 5), so every filter is exercised."""
    out, prev = bytearray(), bytes(len(rows[0])) if rows else b""
    for y, row in enumerate(rows):
        kind = y % 5
        line = bytearray([kind])
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
            line.append((x - predictor) & 0xFF)
        out += line
        prev = row
    return bytes(out)


def make_png(width, height, color_type, depth, samples, interlaced=False, extra_before_idat=b""):
    """`samples[y][x]` is a tuple of integer samples (palette index for colour type 3)."""
    channels = CHANNELS[color_type]
    bpp = max(1, channels * depth // 8)
    if interlaced:
        data = b""
        for x0, y0, dx, dy in ADAM7:
            xs, ys = range(x0, width, dx), range(y0, height, dy)
            if len(xs) == 0 or len(ys) == 0:
                continue
            rows = [pack_row([s for x in xs for s in samples[y][x]], depth) for y in ys]
            data += filter_rows(rows, bpp)
    else:
        rows = [pack_row([s for x in range(width) for s in samples[y][x]], depth) for y in range(height)]
        data = filter_rows(rows, bpp)
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 1 if interlaced else 0)
    return (SIGNATURE + chunk(b"IHDR", ihdr) + extra_before_idat + chunk(b"IDAT", zlib.compress(data, 9))
            + chunk(b"IEND", b""))


def scale16(v):
    """16 -> 8 bits, rounded to nearest (libpng's png_set_scale_16)."""
    return (v * 255 + 32767) // 65535


def grid(width, height, fn):
    return [[fn(x, y) for x in range(width)] for y in range(height)]


def flat(rows):
    return [s for row in rows for px in row for s in px]


def tiff_orientation(value, big_endian):
    """A minimal TIFF structure whose IFD0 holds a dummy tag, then the orientation tag."""
    e = ">" if big_endian else "<"
    head = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, 8)
    ifd = struct.pack(e + "H", 2)
    ifd += struct.pack(e + "HHI", 0x010F, 2, 4) + b"Cam\x00"  # Make: ASCII "Cam", inline
    ifd += struct.pack(e + "HHIH", 0x0112, 3, 1, value) + b"\x00\x00"
    return head + ifd + struct.pack(e + "I", 0)


def check_with_pillow(name, mode, expected_flat):
    """Asserts that Pillow decodes the file to the same samples (for modes where Pillow keeps them)."""
    with Image.open(os.path.join(HERE, name)) as im:
        im = im.convert(mode) if im.mode != mode else im
        got = list(im.tobytes())
    assert got == list(expected_flat), f"{name}: Pillow disagrees with the generator"


def png_fixtures():
    # 8-bit gray, 13x7.
    w, h = 13, 7
    g = grid(w, h, lambda x, y: ((x * 19 + y * 37) % 256,))
    write("png_gray8.png", make_png(w, h, 0, 8, g))
    expect("png_gray8.png", w, h, "gray8", flat(g))
    check_with_pillow("png_gray8.png", "L", flat(g))

    # 1-bit gray (a checkerboard), 2-bit and 4-bit gray: expanded to 0...255.
    for depth, (w, h) in [(1, (11, 5)), (2, (9, 4)), (4, (7, 3))]:
        top = (1 << depth) - 1
        g = grid(w, h, lambda x, y: ((x + 2 * y) % (top + 1),))
        name = f"png_gray{depth}.png"
        write(name, make_png(w, h, 0, depth, g))
        expanded = [s * 255 // top for s in flat(g)]
        expect(name, w, h, "gray8", expanded)
        check_with_pillow(name, "L", expanded)

    # 16-bit gray: values chosen so that scaling (round) and stripping (high byte) differ.
    w, h = 13, 7
    g = grid(w, h, lambda x, y: ((x * 4099 + y * 7919 + 0x00FF) % 65536,))
    write("png_gray16.png", make_png(w, h, 0, 16, g))
    expect("png_gray16.png", w, h, "gray8", [scale16(s) for s in flat(g)])
    with Image.open(os.path.join(HERE, "png_gray16.png")) as im:
        assert list(im.getdata()) == [s for s in flat(g)], "Pillow disagrees on png_gray16.png"

    # Gray + alpha, 8 and 16 bits -> RGBA with gray replicated.
    for depth in (8, 16):
        w, h = 13, 7
        if depth == 8:
            ga = grid(w, h, lambda x, y: ((x * 20 + y * 3) % 256, 255 - x * 9 - y * 5))
        else:
            ga = grid(w, h, lambda x, y: ((x * 5000 + y * 3001 + 0x80) % 65536, (65535 - x * 4000 - y * 777) % 65536))
        name = f"png_gray_alpha{depth}.png"
        write(name, make_png(w, h, 4, depth, ga))
        to8 = (lambda v: v) if depth == 8 else scale16
        rgba = [s for row in ga for (v, a) in row for s in (to8(v), to8(v), to8(v), to8(a))]
        expect(name, w, h, "rgba8", rgba)
        if depth == 8:
            check_with_pillow(name, "RGBA", rgba)

    # Gray with a tRNS key colour -> RGBA; alpha 0 exactly where the sample equals the key.
    w, h = 13, 7
    g = grid(w, h, lambda x, y: ((x * 40 + y) % 256,))
    key = g[2][3][0]
    write("png_gray_trns.png", make_png(w, h, 0, 8, g, extra_before_idat=chunk(b"tRNS", struct.pack(">H", key))))
    rgba = [s for row in g for (v,) in row for s in (v, v, v, 0 if v == key else 255)]
    expect("png_gray_trns.png", w, h, "rgba8", rgba)
    check_with_pillow("png_gray_trns.png", "RGBA", rgba)

    # RGB 8 and 16 bits.
    w, h = 13, 7
    rgb = grid(w, h, lambda x, y: ((x * 19 + y * 7) % 256, (x * 5 + y * 31 + 40) % 256, (255 - x * 11 - y * 3) % 256))
    write("png_rgb8.png", make_png(w, h, 2, 8, rgb))
    expect("png_rgb8.png", w, h, "rgb8", flat(rgb))
    check_with_pillow("png_rgb8.png", "RGB", flat(rgb))

    rgb16 = grid(w, h, lambda x, y: tuple((x * 4099 + y * 7919 + c * 12345 + 0x80) % 65536 for c in range(3)))
    write("png_rgb16.png", make_png(w, h, 2, 16, rgb16))
    expect("png_rgb16.png", w, h, "rgb8", [scale16(s) for s in flat(rgb16)])
    check_with_pillow("png_rgb16.png", "RGB", [s >> 8 for s in flat(rgb16)])  # Pillow keeps the high byte.

    # RGB with a tRNS key colour -> RGBA.
    key = rgb[4][5]
    trns = chunk(b"tRNS", struct.pack(">HHH", *key))
    write("png_rgb_trns.png", make_png(w, h, 2, 8, rgb, extra_before_idat=trns))
    rgba = [s for row in rgb for px in row for s in px + ((0 if px == key else 255),)]
    expect("png_rgb_trns.png", w, h, "rgba8", rgba)
    check_with_pillow("png_rgb_trns.png", "RGBA", rgba)

    # RGBA 8 and 16 bits (straight alpha, not premultiplied: colour kept where alpha is 0).
    rgba8 = grid(w, h, lambda x, y: ((x * 19 + y * 7) % 256, (x * 5 + y * 31) % 256, (x * 23) % 256, (x * 17 + y * 41) % 256))
    write("png_rgba8.png", make_png(w, h, 6, 8, rgba8))
    expect("png_rgba8.png", w, h, "rgba8", flat(rgba8))
    check_with_pillow("png_rgba8.png", "RGBA", flat(rgba8))

    rgba16 = grid(w, h, lambda x, y: tuple((x * 3001 + y * 5003 + c * 20011 + 0x7F) % 65536 for c in range(4)))
    write("png_rgba16.png", make_png(w, h, 6, 16, rgba16))
    expect("png_rgba16.png", w, h, "rgba8", [scale16(s) for s in flat(rgba16)])

    # Palette: 8-bit indices into 20 colours; with and without tRNS; and 4-bit indices.
    palette = [((i * 53) % 256, (i * 97 + 13) % 256, (255 - i * 11) % 256) for i in range(20)]
    plte = chunk(b"PLTE", bytes(s for c in palette for s in c))
    idx = grid(w, h, lambda x, y: ((x + 3 * y) % 20,))
    write("png_palette.png", make_png(w, h, 3, 8, idx, extra_before_idat=plte))
    expect("png_palette.png", w, h, "rgb8", [s for row in idx for (i,) in row for s in palette[i]])
    check_with_pillow("png_palette.png", "RGB", [s for row in idx for (i,) in row for s in palette[i]])

    alphas = [0, 40, 80, 120, 160, 200, 255]  # tRNS for the first 7 entries; the rest are opaque.
    trns = chunk(b"tRNS", bytes(alphas))
    write("png_palette_trns.png", make_png(w, h, 3, 8, idx, extra_before_idat=plte + trns))
    rgba = [s for row in idx for (i,) in row for s in palette[i] + ((alphas[i] if i < len(alphas) else 255),)]
    expect("png_palette_trns.png", w, h, "rgba8", rgba)
    check_with_pillow("png_palette_trns.png", "RGBA", rgba)

    w4, h4 = 9, 5
    plte12 = chunk(b"PLTE", bytes(s for c in palette[:12] for s in c))
    idx4 = grid(w4, h4, lambda x, y: ((2 * x + y) % 12,))
    write("png_palette4.png", make_png(w4, h4, 3, 4, idx4, extra_before_idat=plte12))
    expect("png_palette4.png", w4, h4, "rgb8", [s for row in idx4 for (i,) in row for s in palette[i]])
    check_with_pillow("png_palette4.png", "RGB", [s for row in idx4 for (i,) in row for s in palette[i]])

    # Adam7 interlacing: RGB8 13x7, RGBA16 6x5, and gray8 3x3 (some passes empty).
    write("png_interlaced_rgb8.png", make_png(w, h, 2, 8, rgb, interlaced=True))
    expect("png_interlaced_rgb8.png", w, h, "rgb8", flat(rgb))
    check_with_pillow("png_interlaced_rgb8.png", "RGB", flat(rgb))
    r16 = [row[:6] for row in rgba16[:5]]
    write("png_interlaced_rgba16.png", make_png(6, 5, 6, 16, r16, interlaced=True))
    expect("png_interlaced_rgba16.png", 6, 5, "rgba8", [scale16(s) for s in flat(r16)])
    g3 = grid(3, 3, lambda x, y: (x * 80 + y * 7,))
    write("png_interlaced_gray8_3x3.png", make_png(3, 3, 0, 8, g3, interlaced=True))
    expect("png_interlaced_gray8_3x3.png", 3, 3, "gray8", flat(g3))
    check_with_pillow("png_interlaced_gray8_3x3.png", "L", flat(g3))

    # eXIf orientation: 6 big-endian, 8 little-endian.
    for value, big in [(6, True), (8, False)]:
        name = f"png_exif{value}.png"
        write(name, make_png(w, h, 2, 8, rgb, extra_before_idat=chunk(b"eXIf", tiff_orientation(value, big))))
        expect(name, w, h, "rgb8", flat(rgb), orientation=value)

    # A wrong CRC on an ancillary chunk (eXIf): libpng discards the chunk with a warning; the image decodes.
    exif = bytearray(chunk(b"eXIf", tiff_orientation(6, True)))
    exif[-1] ^= 0x01
    write("png_exif_bad_crc.png", make_png(w, h, 2, 8, rgb, extra_before_idat=bytes(exif)))
    expect("png_exif_bad_crc.png", w, h, "rgb8", flat(rgb), orientation=1)

    # 1x1 and 63x40.
    write("png_1x1.png", make_png(1, 1, 6, 8, [[(10, 20, 30, 40)]]))
    expect("png_1x1.png", 1, 1, "rgba8", [10, 20, 30, 40])
    big = grid(63, 40, lambda x, y: ((x * 4 + y * 6 + x * y) % 256,))
    write("png_63x40.png", make_png(63, 40, 0, 8, big))
    expect("png_63x40.png", 63, 40, "gray8", flat(big))

    # MARK: damaged PNGs
    good = make_png(w, h, 2, 8, rgb)
    idat = good.index(b"IDAT")
    idat_length = struct.unpack(">I", good[idat - 4:idat])[0]
    # Cut in the middle of the compressed data.
    write("png_truncated.png", good[:idat + 4 + idat_length // 2])
    expect_error("png_truncated.png", "truncated")
    # Only the signature and half of IHDR.
    write("png_truncated_header.png", good[:20])
    expect_error("png_truncated_header.png", "truncated")
    # Intact data under a wrong IDAT CRC (a critical chunk: an error).
    bad = bytearray(good)
    bad[idat + 4 + idat_length] ^= 0x10
    write("png_bad_crc.png", bytes(bad))
    expect_error("png_bad_crc.png", "corrupt")
    # A flipped bit in the compressed data: zlib fails before the CRC is checked.
    bad = bytearray(good)
    bad[idat + 4 + idat_length // 2] ^= 0x10
    write("png_bad_idat.png", bytes(bad))
    expect_error("png_bad_idat.png", "corrupt")
    # Valid CRCs around a compressed stream that is not zlib.
    junk = bytes((i * 73 + 11) % 256 for i in range(40))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    write("png_bad_zlib.png", SIGNATURE + chunk(b"IHDR", ihdr) + chunk(b"IDAT", junk) + chunk(b"IEND", b""))
    expect_error("png_bad_zlib.png", "corrupt")
    # Palette image without PLTE.
    write("png_missing_plte.png", make_png(w, h, 3, 8, idx))
    expect_error("png_missing_plte.png", "corrupt")
    # A header claiming 100000 x 100000 (10^10 pixels) over a tiny, valid IDAT: refused before allocating.
    huge = struct.pack(">IIBBBBB", 100000, 100000, 8, 0, 0, 0, 0)
    tiny = zlib.compress(b"\x00" * 64)
    write("png_huge.png", SIGNATURE + chunk(b"IHDR", huge) + chunk(b"IDAT", tiny) + chunk(b"IEND", b""))
    expect_error("png_huge.png", "tooLarge", width=100000, height=100000)
    # Zero width (forbidden by the PNG spec), valid CRC.
    zero = struct.pack(">IIBBBBB", 0, 7, 8, 2, 0, 0, 0)
    write("png_zero_width.png", SIGNATURE + chunk(b"IHDR", zero) + chunk(b"IDAT", tiny) + chunk(b"IEND", b""))
    expect_error("png_zero_width.png", "zeroSize")


# MARK: - JPEG fixtures


def jpeg_bytes(image, **options):
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", **options)
    return buffer.getvalue()


def pillow_pixels(name, mode):
    with Image.open(os.path.join(HERE, name)) as im:
        if im.mode != mode:
            im = im.convert(mode)
        return list(im.tobytes())


def rgb_pattern(w, h):
    image = Image.new("RGB", (w, h))
    image.putdata([(x * 255 // max(1, w - 1), y * 255 // max(1, h - 1), ((x + y) * 16) % 256)
                   for y in range(h) for x in range(w)])
    return image


def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def sof_offset(data):
    """Offset of the SOF0/SOF2 marker's height field."""
    for marker in (b"\xff\xc0", b"\xff\xc2"):
        at = data.find(marker)
        if at >= 0:
            return at + 5
    raise ValueError("no SOF")


def jpeg_fixtures():
    w, h = 32, 24
    rgb = rgb_pattern(w, h)

    def add(name, data, fmt, orientation=1):
        write(name, data)
        with Image.open(os.path.join(HERE, name)) as im:
            size = im.size
        mode = {"gray8": "L", "rgb8": "RGB"}[fmt]
        expect(name, size[0], size[1], fmt, pillow_pixels(name, mode), orientation=orientation, tolerance=2)

    baseline = jpeg_bytes(rgb, quality=90)
    add("jpeg_baseline.jpg", baseline, "rgb8")
    add("jpeg_baseline_444.jpg", jpeg_bytes(rgb, quality=90, subsampling=0), "rgb8")
    progressive = jpeg_bytes(rgb, quality=90, progressive=True)
    add("jpeg_progressive.jpg", progressive, "rgb8")
    with Image.open(os.path.join(HERE, "jpeg_progressive.jpg")) as im:
        assert im.info.get("progressive") or im.info.get("progression"), "Pillow did not write a progressive JPEG"
    add("jpeg_gray.jpg", jpeg_bytes(rgb.convert("L"), quality=90), "gray8")
    # Pillow writes CMYK with an Adobe APP14 marker and inverted samples, as Photoshop does.
    cmyk = Image.new("CMYK", (w, h))
    cmyk.putdata([(x * 8 % 256, y * 10 % 256, (x + y) * 5 % 256, (x * y) % 128) for y in range(h) for x in range(w)])
    add("jpeg_cmyk.jpg", jpeg_bytes(cmyk, quality=95), "rgb8")
    add("jpeg_1x1.jpg", jpeg_bytes(Image.new("RGB", (1, 1), (200, 100, 50)), quality=95), "rgb8")
    add("jpeg_63x40.jpg", jpeg_bytes(rgb_pattern(63, 40), quality=75), "rgb8")

    # EXIF orientations 1...8 (Pillow writes big-endian TIFF), 8x6 pictures.
    small = rgb_pattern(8, 6)
    for value in range(1, 9):
        exif = Image.Exif()
        exif[0x0112] = value
        add(f"jpeg_exif{value}.jpg", jpeg_bytes(small, quality=90, exif=exif), "rgb8", orientation=value)
    # A little-endian EXIF segment inserted by hand after SOI; and one whose IFD runs past its end.
    plain = jpeg_bytes(small, quality=90)
    app1 = segment(0xE1, b"Exif\x00\x00" + tiff_orientation(3, big_endian=False))
    add("jpeg_exif3_le.jpg", plain[:2] + app1 + plain[2:], "rgb8", orientation=3)
    broken = b"Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x30" + b"\x01\x12\x00\x03"  # 48 entries, 1 half there
    add("jpeg_exif_broken.jpg", plain[:2] + segment(0xE1, broken) + plain[2:], "rgb8", orientation=1)

    # MARK: damaged JPEGs
    sos = baseline.index(b"\xff\xda")
    write("jpeg_truncated.jpg", baseline[:sos + (len(baseline) - sos) // 2])
    expect_error("jpeg_truncated.jpg", "truncated")
    write("jpeg_truncated_header.jpg", baseline[:sos // 2])
    expect_error("jpeg_truncated_header.jpg", "truncated")
    psos = progressive.index(b"\xff\xda")
    write("jpeg_progressive_truncated.jpg", progressive[:psos + (len(progressive) - psos) // 2])
    expect_error("jpeg_progressive_truncated.jpg", "truncated")
    # SOI, then a marker byte that is no JPEG marker, then garbage.
    garbage = bytes((i * 151 + 7) % 256 for i in range(200))
    write("jpeg_corrupt.jpg", b"\xff\xd8\xff\x37" + garbage)
    expect_error("jpeg_corrupt.jpg", "corrupt")
    # A header claiming 60000 x 60000 (3.6 * 10^9 pixels): refused before the pixels are allocated.
    at = sof_offset(baseline)
    write("jpeg_huge.jpg", baseline[:at] + struct.pack(">HH", 60000, 60000) + baseline[at + 4:])
    expect_error("jpeg_huge.jpg", "tooLarge", width=60000, height=60000)
    write("jpeg_zero_height.jpg", baseline[:at] + struct.pack(">H", 0) + baseline[at + 2:])
    expect_error("jpeg_zero_height.jpg", "zeroSize")


def sample_pixels():
    """A few pixels of each sample picture, as Pillow decodes them."""
    result = {}
    if not os.path.isdir(SAMPLES):
        print("note: Models/samples is missing (run Models/fetch.sh); expected.json gets no sample pixels")
        return result
    for name in sorted(os.listdir(SAMPLES)):
        with Image.open(os.path.join(SAMPLES, name)) as im:
            mode = "L" if im.mode in ("L", "I;16") else "RGB"
            im = im.convert(mode)
            w, h = im.size
            points = [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (w // 2, h // 2), (w // 3, 2 * h // 3)]
            px = []
            for x, y in points:
                v = im.getpixel((x, y))
                px.append({"x": x, "y": y, "value": list(v) if isinstance(v, tuple) else [v]})
        result[name] = {"width": w, "height": h, "format": "gray8" if mode == "L" else "rgb8",
                        "tolerance": 2 if name.endswith(".jpg") else 0, "pixels": px}
    return result


def main():
    warnings.simplefilter("ignore")  # Pillow warns about jpeg_exif_broken.jpg's EXIF, as it should.
    for name in os.listdir(HERE):
        if name.endswith((".png", ".jpg")):
            os.remove(os.path.join(HERE, name))
    png_fixtures()
    jpeg_fixtures()
    manifest = {
        "generator": "Tests/BlazeImageIOTests/Fixtures/make_fixtures.py",
        "pillow": Image.__version__ if hasattr(Image, "__version__") else __import__("PIL").__version__,
        "images": images, "errors": errors, "samples": sample_pixels(),
    }
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(HERE, n)) for n in os.listdir(HERE))
    print(f"{len(images)} images, {len(errors)} error cases; Fixtures/ holds {total} bytes")


if __name__ == "__main__":
    sys.exit(main())
