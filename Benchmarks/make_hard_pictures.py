#!/usr/bin/env python3
"""Makes the hard still pictures of Documentation/FaceDetector.md's "Still-picture default" table from the sample
pictures: close-ups, faces in a surgical mask and old photographs, each also turned by 90, 180 and 270 degrees.

  python Benchmarks/make_hard_pictures.py [--samples Models/samples] [--out out/hard-pictures]

Needs Pillow and numpy (the pins of Tests/Goldens/requirements-mediapipe.txt). Nothing is downloaded. The pictures
stand in for the ones users reported (a 112-pixel close-up, a face in a surgical mask, a 1940s press photo); they
are made, not photographed, and the table says so.

- closeup-NAME.png: the face's square, 1.25 times the face box, resized to 112x112 (Lanczos).
- masked-NAME.png: a pale-blue surgical mask drawn from just below the nose to under the chin, with pleats and
  ear loops.
- old-NAME.png: grayscale, sepia-toned, contrast down to 60 %, blurred (radius 1.2), grain (sigma 14, seeded),
  a vignette, 800 pixels wide.
- Each as NAME-r90.png, NAME-r180.png, NAME-r270.png too: turned clockwise, no orientation tag.

The face boxes (x, y, side, in the sample's pixels) are where `blazeface detect --model full-range` puts them; they
only place the crops and masks.
"""
from __future__ import annotations

import argparse
import os

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

FACES = {
    "astronaut.png": (175, 70, 105),
    "obama.jpg": (355, 134, 277),
    "biden.jpg": (437, 243, 315),
    "single_face.jpg": (164, 175, 218),
}
OLD = ["t1.jpg", "multi_face.jpg", "obama.jpg", "breakingbad.jpg"]


def closeup(image: Image.Image, box: tuple[int, int, int]) -> Image.Image:
    x, y, side = box
    cx, cy, half = x + side / 2, y + side / 2, 1.25 * side / 2
    return image.crop((round(cx - half), round(cy - half), round(cx + half), round(cy + half))).resize(
        (112, 112), Image.LANCZOS)


def masked(image: Image.Image, box: tuple[int, int, int]) -> Image.Image:
    x, y, s = box
    out = image.copy()
    draw = ImageDraw.Draw(out)
    top, bottom = y + 0.52 * s, y + 1.02 * s
    left, right = x + 0.08 * s, x + 0.92 * s
    polygon = [(left, top + 0.06 * s), (x + 0.5 * s, top - 0.02 * s), (right, top + 0.06 * s),
               (right - 0.04 * s, bottom - 0.12 * s), (x + 0.5 * s, bottom), (left + 0.04 * s, bottom - 0.12 * s)]
    draw.polygon(polygon, fill=(158, 201, 230))
    for k in range(1, 4):  # pleats
        yy = top + k * (bottom - top) / 4.5
        draw.line([(left + 0.05 * s, yy), (right - 0.05 * s, yy)], fill=(128, 170, 200), width=max(1, round(s / 80)))
    for side in (left, right):  # ear loops
        draw.line([(side, top + 0.06 * s), (side + (-0.06 if side == left else 0.06) * s, y + 0.45 * s)],
                  fill=(230, 230, 230), width=max(1, round(s / 60)))
    return out


def old(image: Image.Image, seed: int) -> Image.Image:
    width = 800
    gray = image.convert("L").resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    gray = gray.filter(ImageFilter.GaussianBlur(1.2))
    values = np.asarray(gray, dtype=np.float32)
    values = 128 + 0.6 * (values - 128)
    values += np.random.default_rng(seed).normal(0, 14, values.shape)
    h, w = values.shape
    yy, xx = np.mgrid[0:h, 0:w]
    r = np.hypot((xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2))
    values *= np.clip(1.15 - 0.35 * r ** 2, 0.55, 1)
    values = np.clip(values, 0, 255) / 255
    sepia = np.stack([values * 1.0, values * 0.86, values * 0.66], axis=-1)
    return Image.fromarray(np.clip(sepia * 255, 0, 255).astype(np.uint8))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", default="Models/samples")
    parser.add_argument("--out", default="out/hard-pictures")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    made: dict[str, Image.Image] = {}
    for name, box in FACES.items():
        image = Image.open(os.path.join(args.samples, name)).convert("RGB")
        stem = os.path.splitext(name)[0]
        made[f"closeup-{stem}"] = closeup(image, box)
        made[f"masked-{stem}"] = masked(image, box)
    for seed, name in enumerate(OLD):
        made[f"old-{os.path.splitext(name)[0]}"] = old(Image.open(os.path.join(args.samples, name)).convert("RGB"), seed)
    for stem, image in sorted(made.items()):
        image.save(os.path.join(args.out, f"{stem}.png"))
        for turn in (90, 180, 270):
            image.rotate(-turn, expand=True).save(os.path.join(args.out, f"{stem}-r{turn}.png"))
    print(f"{len(made)} pictures, each in 4 turns, in {args.out}")


if __name__ == "__main__":
    main()
