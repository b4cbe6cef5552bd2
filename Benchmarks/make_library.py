#!/usr/bin/env python3
"""Makes the photo-library folder of `blazeface-bench --library` and Benchmarks/compare_library.sh from the sample
pictures: 12-megapixel JPEGs and HEICs, the kind of files a phone writes.

  .venv-libscan/bin/python Benchmarks/make_library.py [--out out/library] [--count 24] [--megapixels 12]

For file i of --count, sample i mod n of Models/samples/ (the JPEG and PNG pictures, sorted by name; n = 18 today),
mirrored left-right on its second use (and turned by 180° on its third, ...), is
  1. converted to RGB (gray and alpha dropped, as a camera's picture has neither),
  2. scaled with Pillow's Lanczos filter to --megapixels (12 MP: 4000x3000 for a 4:3 picture; the aspect ratio kept,
     each side rounded to an even number),
  3. given deterministic Gaussian noise of standard deviation --noise (2 levels; seed 15 + i), like a sensor's:
     an upscaled picture without it is smoother than a photograph and compresses (and decodes) unrealistically
     fast,
  4. written as OUT/jpeg/NAME.jpg (Pillow, libjpeg-turbo, --jpeg-quality 90, 4:2:0 chroma, no EXIF) and as
     OUT/heic/NAME.heic (pillow-heif's libheif and x265, --heic-quality 60, 4:2:0, 8 bits, no EXIF).
OUT/manifest.json records every file (source, size in pixels and bytes) and the encoders' versions.

Pinned in Benchmarks/requirements-library.txt (pillow-heif) on top of Tests/Goldens/requirements-mediapipe.txt
(Pillow, numpy); Benchmarks/compare_library.sh creates the venv and runs this when the folder is missing. The same
pins make the same files: the encoders are the wheels' own, not the system's.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from importlib import metadata

import numpy as np
from PIL import Image, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def samples(folder: str) -> list[str]:
    names = sorted(n for n in os.listdir(folder) if n.lower().endswith((".jpg", ".jpeg", ".png")))
    if not names:
        sys.exit(f"make_library: no JPEG or PNG pictures in {folder} (run Models/fetch.sh)")
    return [os.path.join(folder, n) for n in names]


def picture(path: str, use: int, megapixels: float, noise: float, seed: int) -> Image.Image:
    image = ImageOps.exif_transpose(Image.open(path)).convert("RGB")
    if use % 2 == 1:
        image = ImageOps.mirror(image)
    if (use // 2) % 2 == 1:
        image = image.rotate(180)
    w, h = image.size
    scale = math.sqrt(megapixels * 1e6 / (w * h))
    size = (2 * round(w * scale / 2), 2 * round(h * scale / 2))
    image = image.resize(size, Image.Resampling.LANCZOS)
    if noise > 0:
        rng = np.random.default_rng(seed)
        pixels = np.asarray(image, dtype=np.float32)
        pixels += rng.normal(0.0, noise, size=pixels.shape).astype(np.float32)
        image = Image.fromarray(np.clip(np.rint(pixels), 0, 255).astype(np.uint8), "RGB")
    return image


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--samples", default=os.path.join(ROOT, "Models", "samples"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "library"))
    ap.add_argument("--count", type=int, default=24, help="files per format")
    ap.add_argument("--megapixels", type=float, default=12.0)
    ap.add_argument("--noise", type=float, default=2.0, help="standard deviation of the added noise, in levels")
    ap.add_argument("--jpeg-quality", type=int, default=90)
    ap.add_argument("--heic-quality", type=int, default=60)
    args = ap.parse_args()

    import pillow_heif
    pillow_heif.register_heif_opener()
    sources = samples(args.samples)
    for kind in ("jpeg", "heic"):
        os.makedirs(os.path.join(args.out, kind), exist_ok=True)
    files = []
    for i in range(args.count):
        source, use = sources[i % len(sources)], i // len(sources)
        stem = os.path.splitext(os.path.basename(source))[0]
        name = f"{i:03d}-{stem}" + ("" if use == 0 else f"-v{use}")
        image = picture(source, use, args.megapixels, args.noise, 15 + i)
        jpeg = os.path.join(args.out, "jpeg", name + ".jpg")
        heic = os.path.join(args.out, "heic", name + ".heic")
        image.save(jpeg, "JPEG", quality=args.jpeg_quality, subsampling="4:2:0")
        image.save(heic, "HEIF", quality=args.heic_quality, chroma=420)
        files.append({"name": name, "source": os.path.basename(source), "mirrored": use % 2 == 1,
                      "turned_180": (use // 2) % 2 == 1, "width": image.width, "height": image.height,
                      "jpeg_bytes": os.path.getsize(jpeg), "heic_bytes": os.path.getsize(heic)})
        print(f"[{i + 1}/{args.count}] {name}: {image.width}x{image.height}, JPEG {files[-1]['jpeg_bytes'] / 1e6:.2f} MB, "
              f"HEIC {files[-1]['heic_bytes'] / 1e6:.2f} MB", file=sys.stderr, flush=True)
    info = pillow_heif.libheif_info()
    manifest = {
        "count": args.count, "megapixels": args.megapixels, "noise_sd": args.noise,
        "jpeg": {"encoder": f"Pillow {metadata.version('pillow')} (libjpeg-turbo "
                            f"{Image.core.libjpeg_turbo_version or '?'})", "quality": args.jpeg_quality,
                 "subsampling": "4:2:0"},
        "heic": {"encoder": f"pillow-heif {metadata.version('pillow-heif')}, libheif {info.get('libheif')}, "
                            f"{info.get('HEIF')}", "quality": args.heic_quality, "chroma": "4:2:0"},
        "files": files,
    }
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(os.path.join(args.out, "manifest.json"))


if __name__ == "__main__":
    main()
