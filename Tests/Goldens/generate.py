#!/usr/bin/env python3
"""Writes the LiteRT golden outputs under Tests/Goldens/ for the six BlazeFace / MediaPipe models.

Run through Tests/Goldens/generate.sh (which pins the environment and fetches the models and the sample
image); running this file directly works too once `.venv-goldens/` exists and the inputs are in place.

For every model key it writes Tests/Goldens/<key>/:
  random_input.npy   float16 [1,H,W,3]  seeded uniform noise in the model's input range; model input = float32 of it
  image_input.npy    uint8   [1,H,W,3]  preprocessed astronaut picture; model input = u8 * scale + offset (float32)
  <case>_output_<k>.npy  float32       LiteRT (default resolver, XNNPACK, 1 thread) output k, in output order
and Tests/Goldens/manifest.json describing all of it.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib import metadata

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS_DIR = os.path.join(ROOT, "Models")
SAMPLE_PATH = os.path.join(MODELS_DIR, "samples", "astronaut.png")
SAMPLE_SHA256 = "88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5"
SAMPLE_SOURCE = "skimage/data/astronaut.png from the scikit-image==0.25.2 cp311 manylinux x86_64 wheel"

# Crop boxes in the 512x512 astronaut picture, (left, top, right, bottom), right/bottom exclusive.
FACE_BOX = (146, 40, 306, 200)  # 160x160 around the face (roughly a MediaPipe 1.5x face ROI), unrotated
EYE_BOX = (175, 73, 231, 129)   # 56x56 around the subject's right eye (viewer's left; the unmirrored eye)

DETECTOR_RANGE = (-1.0, 1.0)
LANDMARK_RANGE = (0.0, 1.0)

# key -> (model file, input range, image preprocessing, random seed)
MODELS = {
    "short_range": ("face_detection_short_range.tflite", DETECTOR_RANGE, "letterbox", 1001),
    "full_range": ("face_detection_full_range.tflite", DETECTOR_RANGE, "letterbox", 1002),
    "full_range_sparse": ("face_detection_full_range_sparse.tflite", DETECTOR_RANGE, "letterbox", 1002),
    "back": ("face_detection_back.tflite", DETECTOR_RANGE, "letterbox", 1004),
    "face_landmark": ("face_landmark.tflite", LANDMARK_RANGE, "face_crop", 1005),
    "iris_landmark": ("iris_landmark.tflite", LANDMARK_RANGE, "eye_crop", 1006),
}

TOLERANCE_NOTE = ("Swift tests: worst |ours - LiteRT| / max(1, max|LiteRT|) over every element of every "
                  "output must be <= 1e-4")
REL_WARN = 1e-4


# ----------------------------------------------------------------------------------------------------------
# LiteRT

def _interpreter_module():
    from ai_edge_litert import interpreter as litert  # imported lazily so --help etc. work without it
    return litert


def make_interpreter(model_path: str, variant: str = "xnnpack", preserve_all_tensors: bool = False):
    """variant: 'xnnpack' (default resolver, default delegate), 'builtin' (optimized kernels, no delegate),
    'ref' (reference kernels)."""
    litert = _interpreter_module()
    resolver = {
        "xnnpack": litert.OpResolverType.AUTO,
        "builtin": litert.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES,
        "ref": litert.OpResolverType.BUILTIN_REF,
    }[variant]
    it = litert.Interpreter(model_path=model_path, num_threads=1, experimental_op_resolver_type=resolver,
                            experimental_preserve_all_tensors=preserve_all_tensors)
    it.allocate_tensors()
    return it


def run_model(model_path: str, x: np.ndarray, variant: str = "xnnpack") -> list[np.ndarray]:
    it = make_interpreter(model_path, variant)
    (inp,) = it.get_input_details()
    assert x.dtype == np.float32 and tuple(x.shape) == tuple(inp["shape"]), (x.dtype, x.shape, inp["shape"])
    it.set_tensor(inp["index"], x)
    it.invoke()
    return [np.array(it.get_tensor(d["index"]), dtype=np.float32, copy=True) for d in it.get_output_details()]


# ----------------------------------------------------------------------------------------------------------
# Image preprocessing (numpy only; results are stored as uint8, so this only has to be deterministic)

def bilinear_resize(img: np.ndarray, out_h: int, out_w: int) -> np.ndarray:
    """Bilinear resize of an HxWxC uint8 image with half-pixel centres (align_corners=False, no antialias),
    edge-clamped, float64 arithmetic, rounded half-to-even back to uint8."""
    in_h, in_w = img.shape[:2]
    src = img.astype(np.float64)

    def axis(n_out: int, n_in: int):
        s = (np.arange(n_out, dtype=np.float64) + 0.5) * (n_in / n_out) - 0.5
        s = np.clip(s, 0.0, n_in - 1)
        i0 = np.floor(s).astype(np.int64)
        i1 = np.minimum(i0 + 1, n_in - 1)
        return i0, i1, s - i0

    y0, y1, fy = axis(out_h, in_h)
    x0, x1, fx = axis(out_w, in_w)
    fx = fx[None, :, None]
    top = src[y0][:, x0] * (1.0 - fx) + src[y0][:, x1] * fx
    bot = src[y1][:, x0] * (1.0 - fx) + src[y1][:, x1] * fx
    out = top * (1.0 - fy[:, None, None]) + bot * fy[:, None, None]
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def letterbox(img: np.ndarray, size: int) -> np.ndarray:
    """Centred letterbox to a size x size square with a zero border (MediaPipe's keep-aspect-ratio mode)."""
    h, w = img.shape[:2]
    side = max(h, w)
    canvas = np.zeros((side, side, img.shape[2]), dtype=np.uint8)
    top, left = (side - h) // 2, (side - w) // 2
    canvas[top:top + h, left:left + w] = img
    return bilinear_resize(canvas, size, size)


def crop_resize(img: np.ndarray, box: tuple[int, int, int, int], size: int) -> np.ndarray:
    l, t, r, b = box
    assert r - l == b - t, "crop boxes are square"
    return bilinear_resize(img[t:b, l:r], size, size)


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def load_sample() -> np.ndarray:
    from PIL import Image
    got = sha256_file(SAMPLE_PATH)
    if got != SAMPLE_SHA256:
        sys.exit(f"error: {SAMPLE_PATH} has sha256 {got}, want {SAMPLE_SHA256}")
    with Image.open(SAMPLE_PATH) as im:
        img = np.asarray(im.convert("RGB"), dtype=np.uint8)
    assert img.shape == (512, 512, 3), img.shape
    return img


# ----------------------------------------------------------------------------------------------------------
# Cases

def scale_offset(in_range: tuple[float, float]) -> tuple[float, float]:
    lo, hi = in_range
    return (hi - lo) / 255.0, lo  # detectors: 2/255, -1; landmarks: 1/255, 0


def model_input_from_file(arr: np.ndarray, scale: float, offset: float) -> np.ndarray:
    """The exact float32 model input for a stored case input (float16 noise or uint8 picture)."""
    if arr.dtype == np.float16:
        return arr.astype(np.float32)
    if arr.dtype == np.uint8:
        return arr.astype(np.float32) * np.float32(scale) + np.float32(offset)
    raise TypeError(f"unexpected stored input dtype {arr.dtype}")


def case_inputs(key: str, shape: tuple[int, ...], sample: np.ndarray | None):
    """Returns {case name: (stored array, scale, offset)}."""
    _, in_range, prep, seed = MODELS[key]
    rng = np.random.default_rng(seed)
    noise = rng.uniform(in_range[0], in_range[1], size=shape).astype(np.float16)
    cases = {"random": (noise, 1.0, 0.0)}
    if sample is not None:
        _, h, w, _ = shape
        assert h == w
        if prep == "letterbox":
            pic = letterbox(sample, h)
        elif prep == "face_crop":
            pic = crop_resize(sample, FACE_BOX, h)
        else:
            pic = crop_resize(sample, EYE_BOX, h)
        s, o = scale_offset(in_range)
        cases["image"] = (pic[None], s, o)
    return cases


def save_npy(path: str, arr: np.ndarray) -> None:
    with open(path, "wb") as f:
        np.save(f, np.ascontiguousarray(arr), allow_pickle=False)


def max_abs_diff(a: list[np.ndarray], b: list[np.ndarray]) -> list[float]:
    return [float(np.max(np.abs(x.astype(np.float64) - y.astype(np.float64)))) for x, y in zip(a, b)]


def main() -> None:
    sample = load_sample()
    manifest = {
        "description": "LiteRT golden outputs for the BlazeFace / MediaPipe face models; see README.md",
        "regenerate": "Tests/Goldens/generate.sh",
        "versions": {p: metadata.version(p) for p in ("ai-edge-litert", "numpy", "pillow")},
        "litert_run": "ai_edge_litert.interpreter.Interpreter(model_path, num_threads=1), default op resolver "
                      "(XNNPACK delegate); litert_variant_diff = max |XNNPACK - BUILTIN_REF| per output, "
                      "litert_builtin_diff = max |XNNPACK - BUILTIN_WITHOUT_DEFAULT_DELEGATES| per output",
        "sample_image": {"file": "Models/samples/astronaut.png", "sha256": SAMPLE_SHA256,
                         "source": SAMPLE_SOURCE, "shape": list(sample.shape)},
        "image_preprocessing": {
            "resize": "bilinear, half-pixel centres, no antialias, float64, round half to even",
            "detectors": "whole 512x512 picture letterboxed (square: no padding) and resized to the model size",
            "face_landmark_crop_box_ltrb": list(FACE_BOX),
            "iris_landmark_crop_box_ltrb": list(EYE_BOX),
        },
        "tolerance": TOLERANCE_NOTE,
        "models": {},
    }
    worst_rel = 0.0
    for key, (fname, in_range, prep, seed) in MODELS.items():
        model_path = os.path.join(MODELS_DIR, fname)
        it = make_interpreter(model_path)
        (inp,) = it.get_input_details()
        outs = it.get_output_details()
        shape = tuple(int(v) for v in inp["shape"])
        out_dir = os.path.join(HERE, key)
        os.makedirs(out_dir, exist_ok=True)
        for f in os.listdir(out_dir):
            if f.endswith(".npy"):
                os.remove(os.path.join(out_dir, f))
        entry = {
            "file": fname,
            "sha256": sha256_file(model_path),
            "input_range": list(in_range),
            "random_seed": seed,
            "inputs": [{"name": inp["name"], "index": int(inp["index"]), "shape": list(shape),
                        "dtype": np.dtype(inp["dtype"]).name}],
            "outputs": [{"name": d["name"], "index": int(d["index"]),
                         "shape": [int(v) for v in d["shape"]]} for d in outs],
            "cases": [],
        }
        for case, (stored, scale, offset) in case_inputs(key, shape, sample).items():
            x = model_input_from_file(stored, scale, offset)
            assert x.min() >= in_range[0] and x.max() <= in_range[1]
            golden = run_model(model_path, x, "xnnpack")
            again = run_model(model_path, x, "xnnpack")
            assert all(np.array_equal(a, b) for a, b in zip(golden, again)), f"{key}/{case}: XNNPACK not repeatable"
            ref = run_model(model_path, x, "ref")
            builtin = run_model(model_path, x, "builtin")
            in_file = f"{case}_input.npy"
            save_npy(os.path.join(out_dir, in_file), stored)
            out_files = []
            for k, y in enumerate(golden):
                assert tuple(y.shape) == tuple(outs[k]["shape"])
                assert np.all(np.isfinite(y)), f"{key}/{case}: non-finite output {k}"
                out_files.append(f"{case}_output_{k}.npy")
                save_npy(os.path.join(out_dir, out_files[-1]), y)
            max_abs = [float(np.max(np.abs(y))) for y in golden]
            vdiff = max_abs_diff(golden, ref)
            bdiff = max_abs_diff(golden, builtin)
            rel = max(d / max(1.0, m) for d, m in zip(vdiff + bdiff, max_abs + max_abs))
            worst_rel = max(worst_rel, rel)
            entry["cases"].append({
                "name": case,
                "input": in_file,
                "input_dtype": stored.dtype.name,
                "scale": scale,
                "offset": offset,
                "outputs": out_files,
                "max_abs_output": max_abs,
                "litert_variant_diff": vdiff,
                "litert_builtin_diff": bdiff,
            })
            flag = "  <-- LARGE" if rel > REL_WARN else ""
            print(f"{key:18s} {case:6s} max|out| {['%.4g' % m for m in max_abs]}  "
                  f"xnn-ref {['%.3g' % d for d in vdiff]}  xnn-builtin {['%.3g' % d for d in bdiff]}{flag}")
        manifest["models"][key] = entry
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(f"worst LiteRT variant disagreement, relative to max(1, max|out|): {worst_rel:.3g}")
    if worst_rel > REL_WARN:
        print("warning: LiteRT's own kernels disagree by more than the 1e-4 test tolerance", file=sys.stderr)


if __name__ == "__main__":
    main()
