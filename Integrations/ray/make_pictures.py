"""Makes the cluster test's pictures from Models/samples: variants, copies, damaged and non-picture files.

    python make_pictures.py SAMPLES_DIR OUT_DIR [--count 2400]

Writes the files under OUT_DIR/pictures and OUT_DIR/manifest.json, {path relative to pictures: kind}, with kinds:
  picture      a variant of a sample (size, JPEG quality, PNG, grey, mirrored, EXIF orientation)
  copy         a byte-for-byte copy of a variant, under another name (some with spaces and shell characters)
  corrupt      not decodable: empty, random bytes, a header alone, a PNG cut before its pixels, a zlib stream
               broken inside a PNG: must be an error row
  damaged      a JPEG cut in its last third: the decoder may or may not accept it; only compared with the reference
  not-image    text, JSON or a PDF header, some named .jpg; a FIFO; a broken link: must be an error row
  unsupported  GIF, BMP, TIFF, WebP: error rows with this binary, pictures once the CLI reads those formats
Everything is deterministic (a fixed seed).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import shutil
import zlib

from PIL import Image, ImageOps

SIZES = (None, 1024, 640, 400, 256)    # the long side; None keeps the sample's size
QUALITIES = (92, 60)
SHELL_NAMES = ("copy {i} of it (final).jpg", "it's $HOME; rm -rf x {i}.jpg", "tab\tand space {i}.jpg",
               "ünïcødé {i}.jpg", "-leading-dash {i}.jpg")


def _resized(image: Image.Image, side):
    if side is None or max(image.size) <= side:
        return image
    scale = side / max(image.size)
    return image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))),
                        Image.Resampling.LANCZOS)


def _jpeg(image: Image.Image, quality: int, exif_orientation=None) -> bytes:
    buffer = io.BytesIO()
    arguments = {"quality": quality}
    if exif_orientation:
        exif = Image.Exif()
        exif[0x0112] = exif_orientation
        arguments["exif"] = exif.tobytes()
    image.convert("RGB" if image.mode not in ("L", "RGB") else image.mode).save(buffer, "JPEG", **arguments)
    return buffer.getvalue()


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _variants(name: str, image: Image.Image):
    stem = os.path.splitext(name)[0]
    for side in SIZES:
        small = _resized(image, side)
        label = f"{side or 'full'}"
        for quality in QUALITIES:
            yield f"{stem}-{label}-q{quality}.jpg", _jpeg(small, quality)
        yield f"{stem}-{label}.png", _png(small)
    for side in (640, 400):
        small = _resized(image, side)
        yield f"{stem}-{side}-grey.jpg", _jpeg(ImageOps.grayscale(small), 85)
        yield f"{stem}-{side}-mirror.png", _png(ImageOps.mirror(small))
    # stored turned, with the EXIF orientation that turns it upright again (6: 90 clockwise, 3: 180)
    upright = _resized(image, 640)
    yield f"{stem}-640-exif6.jpg", _jpeg(upright.transpose(Image.Transpose.ROTATE_90), 88, exif_orientation=6)
    yield f"{stem}-640-exif3.jpg", _jpeg(upright.transpose(Image.Transpose.ROTATE_180), 88, exif_orientation=3)


def _broken_png(data: bytes) -> bytes:
    """The PNG with bytes of its first IDAT chunk's zlib stream overwritten (the CRC fixed so only zlib fails)."""
    start = data.index(b"IDAT")
    length = int.from_bytes(data[start - 4:start], "big")
    body = bytearray(data[start + 4:start + 4 + length])
    for offset in range(2, min(len(body), 64)):
        body[offset] ^= 0x5A
    crc = zlib.crc32(b"IDAT" + bytes(body)).to_bytes(4, "big")
    return data[:start + 4] + bytes(body) + crc + data[start + 8 + length:]


def make(samples: str, folder: str, count: int) -> dict:
    rng = random.Random(27)
    if os.path.exists(folder):
        shutil.rmtree(folder)
    out = os.path.join(folder, "pictures")
    os.makedirs(os.path.join(out, "variants"))
    manifest = {}

    def write(relative: str, data: bytes, kind: str) -> None:
        path = os.path.join(out, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as file:
            file.write(data)
        manifest[relative] = kind

    variants = []
    originals = {}
    for name in sorted(os.listdir(samples)):
        with Image.open(os.path.join(samples, name)) as opened:
            image = ImageOps.exif_transpose(opened).copy()
        originals[name] = open(os.path.join(samples, name), "rb").read()
        for variant, data in _variants(name, image):
            relative = os.path.join("variants", variant)
            write(relative, data, "picture")
            variants.append(relative)
        for extension, format_name in (("gif", "GIF"), ("bmp", "BMP"), ("tiff", "TIFF"), ("webp", "WEBP")):
            buffer = io.BytesIO()
            _resized(image, 256).convert("RGB").save(buffer, format_name)
            write(os.path.join("unsupported", f"{os.path.splitext(name)[0]}.{extension}"), buffer.getvalue(),
                  "unsupported")

    jpeg = originals["obama.jpg"]
    png = originals["astronaut.png"]
    corrupt = {
        "empty.jpg": b"", "empty.png": b"",
        "random-1.jpg": rng.randbytes(5000), "random-2.png": rng.randbytes(3000), "random-3.jpg": rng.randbytes(17),
        "jpeg-header-only.jpg": jpeg[:200], "jpeg-soi-then-garbage.jpg": b"\xff\xd8\xff" + rng.randbytes(4000),
        "png-signature-only.png": png[:8], "png-cut-before-pixels.png": png[:300],
        "png-broken-zlib.png": _broken_png(png),
    }
    for name, data in corrupt.items():
        write(os.path.join("corrupt", name), data, "corrupt")
    for index, name in enumerate(("obama.jpg", "t1.jpg", "biden.jpg", "rocket.jpg")):
        data = originals[name]
        write(os.path.join("damaged", f"cut-{index}-{name}"), data[:int(len(data) * 0.7)], "damaged")
    not_images = {"notes.txt": b"a text file\n", "notes.jpg": b"a text file named .jpg\n",
                  "data.json": b'{"faces": []}\n', "document.png": b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n" * 20}
    for name, data in not_images.items():
        write(os.path.join("not-images", name), data, "not-image")
    os.mkfifo(os.path.join(out, "not-images", "pipe.jpg"))
    manifest[os.path.join("not-images", "pipe.jpg")] = "not-image"
    os.symlink("nowhere.jpg", os.path.join(out, "not-images", "broken-link.jpg"))
    manifest[os.path.join("not-images", "broken-link.jpg")] = "not-image"

    index = 0
    while len(manifest) < count:
        source = variants[index % len(variants)]
        if index % 50 == 7:
            name = SHELL_NAMES[(index // 50) % len(SHELL_NAMES)].format(i=index)
        else:
            name = f"{index:05d}-{os.path.basename(source)}"
        relative = os.path.join("copies", f"{index // 500:02d}", name)
        os.makedirs(os.path.join(out, os.path.dirname(relative)), exist_ok=True)
        shutil.copyfile(os.path.join(out, source), os.path.join(out, relative))
        manifest[relative] = "copy"
        index += 1
    with open(os.path.join(folder, "manifest.json"), "w") as file:
        json.dump(manifest, file, indent=0, sort_keys=True)
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("samples")
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=2400)
    arguments = parser.parse_args()
    manifest = make(arguments.samples, arguments.out, arguments.count)
    kinds = {}
    for kind in manifest.values():
        kinds[kind] = kinds.get(kind, 0) + 1
    print(json.dumps({"files": len(manifest), **kinds}))


if __name__ == "__main__":
    main()
