"""Synthetic test pictures built by exact integer operations on the sample pictures of Models/samples/.

Shared by mediapipe_parity.py (MediaPipe Tasks detector goldens) and face_mesh_parity.py (legacy face-mesh
goldens); numpy and pillow only. Each picture is described by a JSON-able recipe dict that the goldens record
together with the sha256 of the picture's RGB bytes; the Swift tests rebuild the pictures from the recipes
(Tests/BlazeTestSupport/PictureRecipe.swift) and check that sha256.

Conventions: pixels are uint8 RGB, rows top first; coordinates x to the right, y down; "crop" ranges are
half-open [start, end). No operation uses floating point: every output byte is an integer function of input
bytes, so any language rebuilds the pictures byte for byte.

Operations (the `op` key):
  file     the sample PNG as RGB (gray replicated, PIL convert("RGB"))
  place    `src` at `at` = [x, y] on a `canvas` = [W, H] filled with R = G = B = `fill`
  hconcat  `parts` side by side, each `src` optionally cut to columns `crop_x`
  crop     columns `crop_x`, rows `crop_y` of `src`
  down2    2x2 box average of `src`: (a + b + c + d + 2) // 4
  mirror   horizontal mirror of `src`: out[y][x] = in[y][W-1-x]
  rot90    `src` turned k quarter turns counterclockwise as displayed (numpy.rot90(in, k)); see ROT90_NOTE
  rotate   `src` turned by a rational angle on a gray canvas, nearest neighbour; see ROTATE_NOTE
  compose  a gray canvas with several `items`, each cut, box-averaged or enlarged, then placed; see COMPOSE_NOTE
"""
from __future__ import annotations

import hashlib
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS_DIR = os.path.join(ROOT, "Models")
SAMPLES_DIR = os.path.join(MODELS_DIR, "samples")

GRAY = 128  # canvas fill for the synthetic pictures (R = G = B = 128)

ROT90_NOTE = ("numpy.rot90(in, k): k = 1: out is W x H (width x height swapped), out[y][x] = in[x][W-1-y]; "
              "k = 2: out[y][x] = in[H-1-y][W-1-x]; k = 3: out[y][x] = in[H-1-x][y] (W, H of the input)")
ROTATE_NOTE = ("integers only; c = cos, s = sin, q = den (c^2 + s^2 = q^2); input Ws x Hs, canvas Wo x Ho; "
               "for each canvas pixel (x, y): u = 2x + 1 - Wo, v = 2y + 1 - Ho (doubled offsets of the pixel centre "
               "from the canvas centre), sx = floor((q*Ws + c*u + s*v) / (2q)), sy = floor((q*Hs - s*u + c*v) / (2q)) "
               "with floor division rounding toward minus infinity; out = in[sy][sx] if 0 <= sx < Ws and "
               "0 <= sy < Hs, else fill. With y down, the content turns clockwise as displayed by the angle "
               "atan2(s, c)")
COMPOSE_NOTE = ("canvas W x H filled with `fill`; items in order, later ones over earlier ones; each item: `src`, cut to "
                "columns `crop_x` and rows `crop_y` if given, then, if given, `up` = k: each pixel repeated k x k, "
                "then, if given, `down` = k: k x k box average (sum of the k*k bytes + k*k // 2) // (k*k) over "
                "blocks [k*X, k*X+k) x [k*Y, k*Y+k), output floor(w / k) x floor(h / k) (leftover columns and rows "
                "dropped); then placed with its top-left corner at `at` (must fit)")


def sha256_bytes(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def sha256_file(path: str) -> str:
    with open(path, "rb") as f:
        return sha256_bytes(f.read())


def rgb_sha256(rgb: np.ndarray) -> str:
    """The sha256 of a picture's RGB bytes (rows top first, no padding)."""
    return sha256_bytes(np.ascontiguousarray(rgb).tobytes())


def expected_sample_sums() -> dict[str, str]:
    sums = {}
    with open(os.path.join(MODELS_DIR, "samples.sha256")) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2:
                sums[parts[1]] = parts[0]
    return sums


_SAMPLE_CACHE: dict[str, np.ndarray] = {}


def load_sample(name: str) -> np.ndarray:
    """A picture of Models/samples/ as HxWx3 uint8 RGB, after checking its sha256 against samples.sha256."""
    if name not in _SAMPLE_CACHE:
        from PIL import Image
        path = os.path.join(SAMPLES_DIR, name)
        want = expected_sample_sums()[name]
        got = sha256_file(path)
        if got != want:
            sys.exit(f"error: {path} has sha256 {got}, want {want}; run Models/fetch.sh")
        with Image.open(path) as im:
            _SAMPLE_CACHE[name] = np.ascontiguousarray(np.asarray(im.convert("RGB"), dtype=np.uint8))
    return _SAMPLE_CACHE[name]


def box_down(src: np.ndarray, k: int) -> np.ndarray:
    """k x k box average with rounding half up: (sum + k*k // 2) // (k*k); leftover columns and rows dropped."""
    h, w = src.shape[0] // k, src.shape[1] // k
    s = np.zeros((h, w, src.shape[2]), dtype=np.uint32)
    for dy in range(k):
        for dx in range(k):
            s += src[dy:h * k:k, dx:w * k:k].astype(np.uint32)
    return ((s + (k * k) // 2) // (k * k)).astype(np.uint8)


def rotate_rational(src: np.ndarray, canvas: tuple[int, int], fill: int, c: int, s: int, q: int) -> np.ndarray:
    """ROTATE_NOTE in numpy int64 (floor division rounds toward minus infinity, as the note says)."""
    assert q > 0 and c * c + s * s == q * q, "cos and sin must satisfy c^2 + s^2 = den^2"
    wo, ho = canvas
    hs, ws = src.shape[:2]
    y, x = np.mgrid[0:ho, 0:wo].astype(np.int64)
    u, v = 2 * x + 1 - wo, 2 * y + 1 - ho
    sx = (q * ws + c * u + s * v) // (2 * q)
    sy = (q * hs - s * u + c * v) // (2 * q)
    inside = (sx >= 0) & (sx < ws) & (sy >= 0) & (sy < hs)
    out = np.full((ho, wo, 3), fill, dtype=np.uint8)
    out[inside] = src[sy[inside], sx[inside]]
    return out


def build_item(item: dict) -> np.ndarray:
    """One `compose` item before placement: crop, then `up`, then `down`."""
    img = load_sample(item["src"])
    x0, x1 = item.get("crop_x", [0, img.shape[1]])
    y0, y1 = item.get("crop_y", [0, img.shape[0]])
    img = img[y0:y1, x0:x1]
    if "up" in item:
        k = item["up"]
        img = np.repeat(np.repeat(img, k, axis=0), k, axis=1)
    if "down" in item:
        img = box_down(img, item["down"])
    return np.ascontiguousarray(img)


def build_image(recipe: dict) -> np.ndarray:
    op = recipe["op"]
    if op == "file":
        return load_sample(recipe["file"])
    if op == "place":
        src = load_sample(recipe["src"])
        w, h = recipe["canvas"]
        x, y = recipe["at"]
        assert 0 <= x and x + src.shape[1] <= w and 0 <= y and y + src.shape[0] <= h
        out = np.full((h, w, 3), recipe["fill"], dtype=np.uint8)
        out[y:y + src.shape[0], x:x + src.shape[1]] = src
        return out
    if op == "hconcat":
        parts = []
        for p in recipe["parts"]:
            src = load_sample(p["src"])
            x0, x1 = p.get("crop_x", [0, src.shape[1]])
            parts.append(src[:, x0:x1])
        return np.ascontiguousarray(np.concatenate(parts, axis=1))
    if op == "crop":
        src = load_sample(recipe["src"])
        (x0, x1), (y0, y1) = recipe["crop_x"], recipe["crop_y"]
        return np.ascontiguousarray(src[y0:y1, x0:x1])
    if op == "down2":
        src = load_sample(recipe["src"]).astype(np.uint32)
        assert src.shape[0] % 2 == 0 and src.shape[1] % 2 == 0
        s = src[0::2, 0::2] + src[0::2, 1::2] + src[1::2, 0::2] + src[1::2, 1::2]
        return ((s + 2) // 4).astype(np.uint8)
    if op == "mirror":
        return np.ascontiguousarray(load_sample(recipe["src"])[:, ::-1])
    if op == "rot90":
        return np.ascontiguousarray(np.rot90(load_sample(recipe["src"]), recipe["k"]))
    if op == "rotate":
        return rotate_rational(load_sample(recipe["src"]), tuple(recipe["canvas"]), recipe["fill"],
                               recipe["cos"], recipe["sin"], recipe["den"])
    if op == "compose":
        w, h = recipe["canvas"]
        out = np.full((h, w, 3), recipe["fill"], dtype=np.uint8)
        for item in recipe["items"]:
            img = build_item(item)
            x, y = item["at"]
            assert 0 <= x and x + img.shape[1] <= w and 0 <= y and y + img.shape[0] <= h, "item does not fit"
            out[y:y + img.shape[0], x:x + img.shape[1]] = img
        return out
    raise ValueError(f"unknown recipe op {op}")
