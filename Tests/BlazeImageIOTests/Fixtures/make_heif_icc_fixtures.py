#!/usr/bin/env python3
"""Writes the HEIF/AVIF and colour-profile fixtures and expected_heif_icc.json next to this script.

Run from the repository root, in a venv with the pinned requirements (not needed by the tests or CI):

    python3 -m venv .venv-heif
    .venv-heif/bin/pip install -r Tests/BlazeImageIOTests/Fixtures/requirements-heif-icc.txt
    .venv-heif/bin/python Tests/BlazeImageIOTests/Fixtures/make_heif_icc_fixtures.py

- HEIC files are written by pillow-heif (libheif with x265), AVIF files by Pillow (libavif with aom). Their
  orientation comes from an EXIF orientation given to the encoder, which both turn into irot/imir boxes (and
  pillow-heif also keeps the EXIF tag, as iPhones do). Expected pixels are pillow-heif's and Pillow's own decoding
  (libheif 1.23 with libde265 1.1; libavif with dav1d), which the Swift tests compare with a small tolerance,
  as libheif's YCbCr conversion is not bit-exact across versions; each fixture also has the flat colours of its
  pattern's blocks, checked at their centres.
- Damaged files are derived from the good ones: cut short, bytes overwritten in the coded image, an `ispe` box
  (and a grid's canvas) claiming a huge size.
- The colour-profile fixtures embed ICC profiles written here from their published definitions: Display P3
  (SMPTE EG 432-1 primaries, D65, sRGB's tone curve; ICC v4, like Apple's) and Adobe RGB (1998) (its primaries,
  D65, gamma 563/256; ICC v2). Their expected sRGB pixels are LittleCMS's conversion through Pillow's ImageCms
  at the perceptual intent (the decoder's), compared in Swift with a tolerance of 1.

expected_heif_icc.json lists "images" (file, width, height, format, tolerance, "expected": a PNG of the reference
decoding in heif_icc_expected/, and "blocks": [x, y, [r, g, b(, a)]] centres with their flat colour), "errors" (file
and ImageIOError case), and "profiles" (PNGs of the stored samples and, when the profile is converted, of their sRGB
conversion).
"""

import io
import json
import math
import os
import struct

from PIL import Image, ImageCms, ImageOps
import pillow_heif

HERE = os.path.dirname(os.path.abspath(__file__))
pillow_heif.register_heif_opener()

images, errors, profiles = [], [], []


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
    return data


# MARK: - Patterns

QUADRANTS = [(220, 40, 40), (40, 200, 60), (50, 70, 210), (230, 230, 230)]  # TL, TR, BL, BR


def quadrant_image(width=64, height=48, alpha=False):
    """Four flat quadrants (16-pixel aligned) and, with alpha, a horizontal alpha ramp in four steps."""
    image = Image.new("RGBA" if alpha else "RGB", (width, height))
    px = image.load()
    for y in range(height):
        for x in range(width):
            colour = QUADRANTS[(y >= height // 2) * 2 + (x >= width // 2)]
            if alpha:
                colour = colour + (255 - 64 * (x * 4 // width),)
            px[x, y] = colour
    return image


def block_centres(image):
    """The centres of the 16x16 blocks fully inside a quadrant of `image` (as displayed), with their colour."""
    w, h = image.size
    out = []
    for y in range(8, h, 16):
        for x in range(8, w, 16):
            out.append([x, y, list(image.getpixel((x, y)))])
    return out


def exif_with_orientation(value):
    exif = Image.Exif()
    exif[0x0112] = value
    return exif.tobytes()


def oriented(image, orientation):
    """What a viewer shows for `image` stored with EXIF `orientation` (Pillow's exif_transpose)."""
    ops = {1: [], 2: [Image.Transpose.FLIP_LEFT_RIGHT], 3: [Image.Transpose.ROTATE_180],
           4: [Image.Transpose.FLIP_TOP_BOTTOM], 5: [Image.Transpose.TRANSPOSE], 6: [Image.Transpose.ROTATE_270],
           7: [Image.Transpose.TRANSVERSE], 8: [Image.Transpose.ROTATE_90]}[orientation]
    for op in ops:
        image = image.transpose(op)
    return image


EXPECTED = os.path.join(HERE, "heif_icc_expected")


def expected_png(name, image):
    """Writes expected pixels as a PNG without a profile (the tests decode it with libpng), and returns its name."""
    os.makedirs(EXPECTED, exist_ok=True)
    path = os.path.join("heif_icc_expected", name + ".png")
    image.save(os.path.join(HERE, path), format="PNG", optimize=True, icc_profile=None)
    return path


def expect(name, decoded, upright_pattern, tolerance, block_tolerance):
    fmt = {"RGB": "rgb8", "RGBA": "rgba8", "L": "gray8"}[decoded.mode]
    images.append({
        "file": name, "width": decoded.size[0], "height": decoded.size[1], "format": fmt,
        "tolerance": tolerance, "blockTolerance": block_tolerance, "expected": expected_png(name, decoded),
        "blocks": block_centres(upright_pattern),
    })


# MARK: - HEIF and AVIF


def heic_bytes(image, quality=90, **options):
    buffer = io.BytesIO()
    image.save(buffer, format="HEIF", quality=quality, **options)
    return buffer.getvalue()


def avif_bytes(image, subsampling="4:4:4", quality=90, **options):
    """4:4:4 by default: libavif upsamples 4:2:0 chroma bilinearly and libheif 1.15 by repeating samples, which
    puts up to 80 levels between them next to a sharp colour edge (avif_420.avif has the pattern check only)."""
    buffer = io.BytesIO()
    image.save(buffer, format="AVIF", quality=quality, speed=6, subsampling=subsampling, **options)
    return buffer.getvalue()


def decoded_by_reference(data):
    """Pillow's decoding, as shown: pillow-heif applies irot/imir itself; Pillow's AVIF plugin reports them as an
    EXIF orientation instead, which exif_transpose applies."""
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        if image.format == "AVIF":
            return ImageOps.exif_transpose(image)
        return image.copy()


def heif_fixtures():
    plain = quadrant_image()
    for name, data in [("heif_rgb.heic", heic_bytes(plain)), ("avif_rgb.avif", avif_bytes(plain))]:
        write(name, data)
        expect(name, decoded_by_reference(data), plain, 6, 4)
    data = write("avif_420.avif", avif_bytes(plain, subsampling="4:2:0"))
    expect("avif_420.avif", decoded_by_reference(data), plain, 80, 4)

    # Orientation: irot 90 degrees anticlockwise (EXIF 8), imir (EXIF 2), both (EXIF 5), iPhone-style (EXIF 6,
    # irot 270) with the EXIF tag kept by pillow-heif: the decoder must turn the picture once, by irot/imir.
    for orientation, name, encode in [(8, "heif_irot90.heic", heic_bytes), (6, "heif_irot270_exif6.heic", heic_bytes),
                                      (2, "heif_imir.heic", heic_bytes), (5, "avif_irot_imir.avif", avif_bytes)]:
        data = write(name, encode(plain, exif=exif_with_orientation(orientation)))
        upright = oriented(plain, orientation)
        reference = decoded_by_reference(data)
        assert reference.size == upright.size, (name, reference.size)
        expect(name, reference, upright, 6, 4)

    # Alpha: straight (HEIC) and premultiplied (AVIF's alpha_premultiplied), both decoded to straight alpha.
    alpha = quadrant_image(alpha=True)
    data = write("heif_alpha.heic", heic_bytes(alpha))
    expect("heif_alpha.heic", decoded_by_reference(data), alpha, 6, 4)
    data = write("avif_alpha_premultiplied.avif", avif_bytes(alpha, alpha_premultiplied=True))
    expect("avif_alpha_premultiplied.avif", decoded_by_reference(data), alpha, 8, 6)

    # A grid of 32x32 tiles (what iPhones write, with 512x512 tiles), and a 10-bit HEIC.
    pillow_heif.options.GRID_TILE_SIZE = 32
    grid = write("heif_grid.heic", heic_bytes(plain))
    pillow_heif.options.GRID_TILE_SIZE = 0
    assert grid.count(b"grid") >= 1, "pillow-heif wrote no grid"
    expect("heif_grid.heic", decoded_by_reference(grid), plain, 6, 4)
    deep_buffer = io.BytesIO()
    pillow_heif.from_bytes(mode="RGB;16", size=plain.size,
                           data=b"".join(struct.pack("<H", c * 257) for c in plain.tobytes())
                           ).save(deep_buffer, quality=90, save_to_12bit=False)
    deep_data = write("heif_10bit.heic", deep_buffer.getvalue())
    assert pillow_heif.open_heif(io.BytesIO(deep_data)).info["bit_depth"] == 10
    expect("heif_10bit.heic", decoded_by_reference(deep_data), plain, 6, 4)
    # Limited range (nclx: BT.601 matrix, full_range_flag 0), as cameras and video tools often write. libheif
    # expands it with its own constants ((Y - 16) x 1.1689, chroma x 1.1429), which the HEVC plugin reproduces.
    limited = write("heif_limited_range.heic", heic_bytes(plain, matrix_coefficients=6, full_range_flag=0,
                                                          color_primaries=1, transfer_characteristics=13))
    colr = limited.index(b"colrnclx") + 8
    assert limited[colr + 6] == 0, "not limited range"
    expect("heif_limited_range.heic", decoded_by_reference(limited), plain, 6, 4)

    # Damage.
    base = open(os.path.join(HERE, "heif_rgb.heic"), "rb").read()
    mdat = base.index(b"mdat") + 4
    write("heif_truncated.heic", base[: mdat + (len(base) - mdat) // 2])
    errors.append({"file": "heif_truncated.heic", "error": "truncated"})
    write("heif_truncated_header.heic", base[: base.index(b"iloc") + 8])
    errors.append({"file": "heif_truncated_header.heic", "error": "truncated"})
    # The slice header overwritten (mdat: a 4-byte NAL length, the 2-byte NAL header, then the slice header). HEVC
    # and AV1 data carry no checksums: damage further into the slice data decodes to damaged pixels.
    corrupt = bytearray(base)
    for i in range(mdat + 6, mdat + 12):
        corrupt[i] ^= 0xFF
    write("heif_corrupt.heic", bytes(corrupt))
    errors.append({"file": "heif_corrupt.heic", "error": "corrupt"})
    huge = bytearray(base)
    ispe = huge.index(b"ispe") + 8
    huge[ispe:ispe + 8] = struct.pack(">II", 40000, 30000)
    write("heif_huge.heic", bytes(huge))
    errors.append({"file": "heif_huge.heic", "error": "tooLarge", "width": 40000, "height": 30000})
    # A grid whose canvas claims 30000x30000 behind an ispe of 64x48: libheif reads the canvas only when decoding.
    bomb = bytearray(grid)
    canvas = find_grid_canvas(bomb)
    bomb[canvas:canvas + 4] = struct.pack(">HH", 30000, 30000)
    write("heif_grid_bomb.heic", bytes(bomb))
    errors.append({"file": "heif_grid_bomb.heic", "error": "unsupported"})
    # A coded picture (the HEVC stream's SPS) of 2048x2048 behind an ispe of 64x64: libde265 would allocate what
    # the SPS says; the bounded plugin refuses it.
    sps = bytearray(heic_bytes(Image.new("RGB", (2048, 2048), (90, 120, 150)), quality=10))
    ispe = sps.index(b"ispe") + 8
    assert struct.unpack(">II", sps[ispe:ispe + 8]) == (2048, 2048)
    sps[ispe:ispe + 8] = struct.pack(">II", 64, 64)
    write("heif_sps_bomb.heic", bytes(sps))
    errors.append({"file": "heif_sps_bomb.heic", "error": "corrupt"})
    frame = bytearray(avif_bytes(Image.new("RGB", (2048, 2048), (90, 120, 150)), quality=10))
    ispe = frame.index(b"ispe") + 8
    frame[ispe:ispe + 8] = struct.pack(">II", 64, 64)
    write("avif_frame_bomb.avif", bytes(frame))
    errors.append({"file": "avif_frame_bomb.avif", "error": "corrupt"})


def find_grid_canvas(data):
    """The offset of the grid item's 16-bit output width in `data` (pillow-heif stores it in idat: version 0,
    flags 0, rows-1, columns-1, then width and height)."""
    idat = data.index(b"idat") + 4
    assert data[idat] == 0 and data[idat + 1] == 0, "expected 16-bit grid fields"
    width, height = struct.unpack(">HH", data[idat + 4: idat + 8])
    assert (width, height) == (64, 48), (width, height)
    return idat + 4


# MARK: - ICC profiles


def s15f16(value):
    return struct.pack(">i", int(round(value * 65536)))


def xyz_tag(x, y, z):
    return b"XYZ " + b"\0" * 4 + s15f16(x) + s15f16(y) + s15f16(z)


def xy_to_xyz(x, y):
    return [x / y, 1.0, (1 - x - y) / y]


def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def inverse(m):
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]


BRADFORD = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
D50 = [0.9642, 1.0, 0.8249]


def chromatic_adaptation(white):
    """Bradford matrix from `white` (XYZ) to D50, as ICC profiles use it."""
    src = [sum(BRADFORD[i][k] * white[k] for k in range(3)) for i in range(3)]
    dst = [sum(BRADFORD[i][k] * D50[k] for k in range(3)) for i in range(3)]
    scale = [[dst[0] / src[0], 0, 0], [0, dst[1] / src[1], 0], [0, 0, dst[2] / src[2]]]
    return matmul(inverse(BRADFORD), matmul(scale, BRADFORD))


def colorants(primaries, white_xy):
    """The D50-adapted XYZ colorants (columns red, green, blue) of an RGB space."""
    white = xy_to_xyz(*white_xy)
    columns = [xy_to_xyz(*p) for p in primaries]
    m = [[columns[j][i] for j in range(3)] for i in range(3)]
    s = [sum(inverse(m)[i][k] * white[k] for k in range(3)) for i in range(3)]
    rgb_to_xyz = [[m[i][j] * s[j] for j in range(3)] for i in range(3)]
    adapted = matmul(chromatic_adaptation(white), rgb_to_xyz)
    return [[adapted[i][j] for i in range(3)] for j in range(3)], chromatic_adaptation(white)


def mluc(text):
    encoded = text.encode("utf-16-be")
    return b"mluc" + b"\0" * 4 + struct.pack(">II", 1, 12) + b"enUS" + struct.pack(">II", len(encoded), 28) + encoded


def text_description(text):
    ascii_text = text.encode("ascii") + b"\0"
    return (b"desc" + b"\0" * 4 + struct.pack(">I", len(ascii_text)) + ascii_text + b"\0" * 4 + b"\0" * 4
            + b"\0" * 67)


def icc_profile(version, description, primaries, white_xy, curve):
    """A display-class RGB matrix-shaper profile (PCS XYZ, D50); a gray one (kTRC only) without primaries."""
    v4 = version >= 4
    tags = [(b"desc", mluc(description) if v4 else text_description(description)),
            (b"cprt", mluc("No copyright, use freely") if v4 else b"text" + b"\0" * 4 + b"No copyright, use freely\0"),
            (b"wtpt", xyz_tag(*D50))]
    if primaries is None:
        tags.append((b"kTRC", curve))
    else:
        columns, chad = colorants(primaries, white_xy)
        tags += [(b"rXYZ", xyz_tag(*columns[0])), (b"gXYZ", xyz_tag(*columns[1])), (b"bXYZ", xyz_tag(*columns[2])),
                 (b"rTRC", curve), (b"gTRC", curve), (b"bTRC", curve)]
        if v4:
            tags.append((b"chad", b"sf32" + b"\0" * 4 + b"".join(s15f16(v) for row in chad for v in row)))
    offset = 128 + 4 + 12 * len(tags)
    table, body, placed = b"", b"", {}
    for signature, data in tags:
        if data in placed:  # the three TRCs share one element
            table += signature + struct.pack(">II", placed[data], len(data))
            continue
        while (offset + len(body)) % 4:
            body += b"\0"
        placed[data] = offset + len(body)
        table += signature + struct.pack(">II", offset + len(body), len(data))
        body += data
    while len(body) % 4:
        body += b"\0"
    size = offset + len(body)
    version_bytes = bytes([4, 0x30, 0, 0]) if v4 else bytes([2, 0x10, 0, 0])
    space = b"GRAY" if primaries is None else b"RGB "
    header = (struct.pack(">I", size) + b"lcms" + version_bytes + b"mntr" + space + b"XYZ "
              + struct.pack(">6H", 2024, 1, 1, 0, 0, 0) + b"acsp" + b"APPL" + b"\0" * 4 + b"\0" * 4 + b"\0" * 4
              + b"\0" * 8 + struct.pack(">I", 0) + s15f16(0.9642) + s15f16(1.0) + s15f16(0.8249) + b"lcms"
              + b"\0" * 16 + b"\0" * 28)
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + table + body


SRGB_PARA = b"para" + b"\0" * 4 + struct.pack(">HH", 3, 0) + b"".join(
    s15f16(v) for v in (2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045))
D65 = (0.3127, 0.3290)
DISPLAY_P3 = icc_profile(4, "Display P3 (test)", [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], D65, SRGB_PARA)
ADOBE_RGB = icc_profile(2, "Adobe RGB (1998) compatible (test)", [(0.640, 0.330), (0.210, 0.710), (0.150, 0.060)],
                        D65, b"curv" + b"\0" * 4 + struct.pack(">IH", 1, 0x0233) + b"\0\0")
LINEAR_GRAY = icc_profile(2, "Linear gray (test)", None, D65, b"curv" + b"\0" * 4 + struct.pack(">IH", 1, 0x0100) + b"\0\0")
# LittleCMS's sRGB profile, with its creation date fixed so that the fixture does not change from run to run.
SRGB = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
SRGB[24:36] = struct.pack(">6H", 2024, 1, 1, 0, 0, 0)
SRGB = bytes(SRGB)


def srgb_encode(level):
    """sRGB's transfer function of a linear level 0...255, as 8 bits."""
    v = level / 255
    return round(255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055))


def vivid_image(width=32, height=24, alpha=False):
    """Saturated and mid colours in 8x8 blocks (a JPEG's blocks), so the conversion moves every channel."""
    palette = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255), (255, 0, 255),
               (200, 120, 60), (60, 140, 200), (128, 128, 128), (30, 30, 30), (240, 240, 240), (180, 40, 120)]
    image = Image.new("RGBA" if alpha else "RGB", (width, height))
    px = image.load()
    for y in range(height):
        for x in range(width):
            colour = palette[((y // 8) * (width // 8) + x // 8) % len(palette)]
            px[x, y] = colour + ((255 - 3 * x - y,) if alpha else ())
    return image


def to_srgb(image, profile):
    """LittleCMS's conversion (Pillow's ImageCms) at the perceptual intent; alpha kept."""
    source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
    target = ImageCms.createProfile("sRGB")
    if image.mode == "RGBA":
        rgb = ImageCms.profileToProfile(image.convert("RGB"), source, target,
                                        renderingIntent=ImageCms.Intent.PERCEPTUAL)
        rgb.putalpha(image.getchannel("A"))
        return rgb
    return ImageCms.profileToProfile(image, source, target, renderingIntent=ImageCms.Intent.PERCEPTUAL)


def relative_matches_perceptual(image, profile):
    """Matrix-shaper profiles: LittleCMS gives the same result at both intents (documented in the decoder)."""
    source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
    target = ImageCms.createProfile("sRGB")
    a = ImageCms.profileToProfile(image, source, target, renderingIntent=ImageCms.Intent.PERCEPTUAL)
    b = ImageCms.profileToProfile(image, source, target, renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    assert a.tobytes() == b.tobytes()


def expect_profile(name, decoded_raw, converted, tolerance=1):
    fmt = {"RGB": "rgb8", "RGBA": "rgba8", "L": "gray8"}[decoded_raw.mode]
    profiles.append({"file": name, "width": decoded_raw.size[0], "height": decoded_raw.size[1], "format": fmt,
                     "tolerance": tolerance, "stored": expected_png(name + ".stored", decoded_raw),
                     "srgb": None if converted is None else expected_png(name + ".srgb", converted)})


def split_icc_markers(jpeg, profile, chunk):
    """`jpeg` (with no ICC marker) with `profile` in APP2 ICC_PROFILE markers of `chunk` bytes each, after APP0."""
    pieces = [profile[i:i + chunk] for i in range(0, len(profile), chunk)]
    markers = b""
    for index, piece in enumerate(pieces, 1):
        payload = b"ICC_PROFILE\0" + bytes([index, len(pieces)]) + piece
        markers += b"\xff\xe2" + struct.pack(">H", len(payload) + 2) + payload
    app0_end = 4 + struct.unpack(">H", jpeg[4:6])[0] if jpeg[2:4] == b"\xff\xe0" else 2
    return jpeg[:app0_end] + markers + jpeg[app0_end:]


def tiff_tag_pointing_past_end(data, tag):
    """`data` (a classic TIFF) with the value offset of `tag` in its first directory moved past the end of the file."""
    order = "<" if data[:2] == b"II" else ">"
    directory = struct.unpack(order + "I", data[4:8])[0]
    count = struct.unpack(order + "H", data[directory:directory + 2])[0]
    patched = bytearray(data)
    for index in range(count):
        entry = directory + 2 + 12 * index
        if struct.unpack(order + "H", data[entry:entry + 2])[0] == tag:
            patched[entry + 8:entry + 12] = struct.pack(order + "I", len(data) + 100_000)
            return bytes(patched)
    raise ValueError(f"no tag {tag}")


def icc_fixtures():
    vivid = vivid_image()
    garbage = struct.pack(">I", 300) + bytes((i * 37) % 251 for i in range(296))  # a plausible size, then noise
    relative_matches_perceptual(vivid, DISPLAY_P3)
    relative_matches_perceptual(vivid, ADOBE_RGB)

    # PNG: lossless, so the stored samples are `vivid` exactly.
    for name, image, profile in [("png_display_p3.png", vivid, DISPLAY_P3),
                                 ("png_adobe_rgb_rgba.png", vivid_image(alpha=True), ADOBE_RGB),
                                 ("png_srgb_profile.png", vivid, SRGB)]:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", icc_profile=profile)
        write(name, buffer.getvalue())
        converted = None if profile is SRGB else to_srgb(image, profile)
        expect_profile(name, image, converted)

    # Gray with a linear gray profile: gray stays gray, on sRGB's tone curve (computed here: Pillow's ImageCms
    # cannot make a gray output profile).
    ramp = Image.new("L", (64, 4))
    ramp.putdata([x * 4 + y for y in range(4) for x in range(64)])
    buffer = io.BytesIO()
    ramp.save(buffer, format="PNG", icc_profile=LINEAR_GRAY)
    write("png_gray_linear_profile.png", buffer.getvalue())
    converted = Image.new("L", ramp.size)
    converted.putdata([srgb_encode(v) for v in ramp.tobytes()])
    expect_profile("png_gray_linear_profile.png", ramp, converted)

    # JPEG: Pillow's libjpeg-turbo decoding of the file is the stored samples; 4:4:4 at quality 95.
    def jpeg(image, **options):
        buffer = io.BytesIO()
        image.save(buffer, format="JPEG", quality=95, subsampling=0, **options)
        return buffer.getvalue()

    data = write("jpeg_display_p3.jpg", jpeg(vivid, icc_profile=DISPLAY_P3))
    stored = decoded_by_reference(data)
    expect_profile("jpeg_display_p3.jpg", stored, to_srgb(stored, DISPLAY_P3))
    # Adobe RGB split over three APP2 markers (the ICC spec's chunking; large profiles need it).
    data = write("jpeg_adobe_rgb_split.jpg", split_icc_markers(jpeg(vivid), ADOBE_RGB, 200))
    assert data.count(b"ICC_PROFILE\0") == 3
    stored = decoded_by_reference(data)
    assert stored.info.get("icc_profile") == ADOBE_RGB
    expect_profile("jpeg_adobe_rgb_split.jpg", stored, to_srgb(stored, ADOBE_RGB))
    # A malformed profile (garbage after a plausible size) is ignored: the pixels stay as stored.
    data = write("jpeg_bad_icc.jpg", split_icc_markers(jpeg(vivid), garbage, 1000))
    expect_profile("jpeg_bad_icc.jpg", decoded_by_reference(data), None)
    # A chunk missing (1 and 3 of 3): libjpeg-turbo returns no profile; the pixels stay as stored.
    whole = split_icc_markers(jpeg(vivid), DISPLAY_P3, 250)
    second = whole.index(b"ICC_PROFILE\0\x02")
    length = struct.unpack(">H", whole[second - 2:second])[0]
    data = write("jpeg_icc_missing_chunk.jpg", whole[:second - 4] + whole[second - 2 + length:])
    expect_profile("jpeg_icc_missing_chunk.jpg", decoded_by_reference(data), None)

    # WebP with an ICCP chunk (lossless: the stored samples are `vivid` exactly) and TIFF with an ICCProfile tag,
    # as scanners write them (Adobe RGB, RGBA, deflate).
    buffer = io.BytesIO()
    vivid.save(buffer, format="WEBP", lossless=True, icc_profile=DISPLAY_P3)
    data = write("webp_display_p3.webp", buffer.getvalue())
    assert b"ICCP" in data
    assert decoded_by_reference(data).tobytes() == vivid.tobytes()
    expect_profile("webp_display_p3.webp", vivid, to_srgb(vivid, DISPLAY_P3))
    scanned = vivid_image(alpha=True)
    buffer = io.BytesIO()
    scanned.save(buffer, format="TIFF", compression="tiff_adobe_deflate", icc_profile=ADOBE_RGB)
    data = write("tiff_adobe_rgb_rgba.tif", buffer.getvalue())
    assert decoded_by_reference(data).info.get("icc_profile") == ADOBE_RGB
    expect_profile("tiff_adobe_rgb_rgba.tif", scanned, to_srgb(scanned, ADOBE_RGB))

    # Damaged profiles in both are ignored (the samples as stored): garbage in the ICCP chunk and in the tag, and a
    # tag whose data lies past the end of the file (libtiff drops it).
    buffer = io.BytesIO()
    vivid.save(buffer, format="WEBP", lossless=True, icc_profile=garbage)
    expect_profile("webp_bad_icc.webp", decoded_by_reference(write("webp_bad_icc.webp", buffer.getvalue())), None)
    buffer = io.BytesIO()
    vivid.save(buffer, format="TIFF", icc_profile=garbage)
    data = write("tiff_bad_icc.tif", buffer.getvalue())
    expect_profile("tiff_bad_icc.tif", vivid, None)
    write("tiff_icc_past_end.tif", tiff_tag_pointing_past_end(data, 34675))
    expect_profile("tiff_icc_past_end.tif", vivid, None)

    # A Display P3 HEIC, like an iPhone's (an ICC profile in a colr box).
    plain = quadrant_image()
    data = write("heif_display_p3.heic", heic_bytes(plain, icc_profile=DISPLAY_P3))
    stored = decoded_by_reference(data)
    assert stored.info.get("icc_profile") == DISPLAY_P3
    expect_profile("heif_display_p3.heic", stored, to_srgb(stored, DISPLAY_P3), tolerance=6)


def sample_pixels():
    """A real Adobe RGB (1998) photo, Models/samples/rocket.jpg (fetched by Models/fetch.sh, not committed): a few
    pixels as stored and as LittleCMS converts them to sRGB."""
    path = os.path.join(HERE, "..", "..", "..", "Models", "samples", "rocket.jpg")
    if not os.path.exists(path):
        return {}
    with Image.open(path) as image:
        image.load()
        profile = image.info["icc_profile"]
        converted = to_srgb(image, profile)
        points = [(x, y) for y in range(13, image.size[1], 97) for x in range(17, image.size[0], 89)]
        return {"rocket.jpg": {
            "width": image.size[0], "height": image.size[1], "tolerance": 2, "profileBytes": len(profile),
            "pixels": [{"x": x, "y": y, "stored": list(image.getpixel((x, y))),
                        "srgb": list(converted.getpixel((x, y)))} for x, y in points]}}


def nclx_fixtures():
    """HEIC and AVIF whose colr nclx box says Display P3 primaries (H.273 code point 12) with sRGB's transfer
    function: the plain fixtures with the primaries patched. The decoder builds a profile from the code points."""
    for source, name in [("heif_rgb.heic", "heif_nclx_p3.heic"), ("avif_rgb.avif", "avif_nclx_p3.avif")]:
        data = bytearray(open(os.path.join(HERE, source), "rb").read())
        colr = data.index(b"colrnclx") + 8
        assert struct.unpack(">HHH", data[colr:colr + 6]) == (1, 13, 6), data[colr:colr + 7].hex()
        data[colr:colr + 2] = struct.pack(">H", 12)
        write(name, bytes(data))
        stored = decoded_by_reference(bytes(data))
        expect_profile(name, stored, to_srgb(stored, DISPLAY_P3), tolerance=6)


def main():
    heif_fixtures()
    icc_fixtures()
    nclx_fixtures()
    with open(os.path.join(HERE, "expected_heif_icc.json"), "w") as f:
        json.dump({"images": images, "errors": errors, "profiles": profiles, "samples": sample_pixels()}, f, indent=1)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(HERE, e["file"])) for e in images + errors + profiles)
    print(f"{len(images)} images, {len(errors)} errors, {len(profiles)} profiles; {total} bytes of fixtures")


if __name__ == "__main__":
    main()
