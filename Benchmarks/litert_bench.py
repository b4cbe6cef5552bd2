#!/usr/bin/env python3
"""The peers' side of Benchmarks/compare_litert.sh: times LiteRT's interpreter, or MediaPipe Tasks' FaceDetector,
the way blazeface-bench times ours, and prints one JSON object shaped like blazeface-bench --json.

  litert_bench.py litert --model PATH [--model PATH ...] [--threads N] [--iterations K] [--warmup W]
                         [--loads L] [--time-limit S]
      ai_edge_litert.interpreter.Interpreter(model_path, num_threads=N) with its default XNNPACK delegate.
      Load time = constructor + allocate_tensors() (XNNPACK packs the weights there), median of L loads.
      Every input is filled once with element i = ((i * 37) mod 255) / 127.5 - 1 (float32), exactly as
      blazeface-bench does; then W untimed and K timed invoke() calls, each timed alone with perf_counter_ns
      (the Python call adds ~1 us). Run with the LiteRT venv (.venv-goldens/ or .venv-bench/).

  litert_bench.py mediapipe --model PATH --image IMAGE [--detect-size WxH] [--one-cpu] [...]
      MediaPipe Tasks' FaceDetector (IMAGE mode, default CPU delegate) on the same frame blazeface-bench
      --detect builds: the picture (EXIF orientation applied, RGB) centred on a gray-128 canvas of WxH at
      (trunc((W - w) / 2), trunc((H - h) / 2)). The model gets the input-normalization metadata MediaPipe needs
      (Tests/Goldens/mediapipe_parity.py's add_metadata, in a temporary copy). --one-cpu pins the process to one
      CPU (MediaPipe's Python API has no thread-count option). Run with .venv-mediapipe/'s python.

Statistics as blazeface-bench: median (mean of the middle two for an even count), min, nearest-rank p90.
With --time-limit S a model's timed loop stops after S seconds even if fewer than K calls ran, and the warm-up
after S/4 seconds (the JSON's "iterations" and "warmup" are the counts that ran).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def summary(ns: list[int]) -> dict:
    ms = sorted(x / 1e6 for x in ns)
    n = len(ms)
    return {
        "median_ms": round(statistics.median(ms), 4),
        "min_ms": round(ms[0], 4),
        "p90_ms": round(ms[max(0, math.ceil(0.9 * n) - 1)], 4),
        "max_ms": round(ms[-1], 4),
        "mean_ms": round(sum(ms) / n, 4),
        "iterations": n,
    }


def pattern(count: int):
    import numpy as np
    return ((np.arange(count, dtype=np.int64) * 37) % 255).astype(np.float32) / np.float32(127.5) - np.float32(1)


def timed_loop(call, iterations: int, warmup: int, time_limit: float | None) -> tuple[list[int], int]:
    clock = time.perf_counter_ns
    warm_end = clock() + int(time_limit / 4 * 1e9) if time_limit else None
    warm = 0
    while warm < warmup and (warm_end is None or clock() < warm_end):
        call()
        warm += 1
    end = clock() + int(time_limit * 1e9) if time_limit else None
    times = []
    while len(times) < iterations:
        t0 = clock()
        call()
        t1 = clock()
        times.append(t1 - t0)
        if end is not None and t1 >= end:
            break
    return times, warm


def peak_rss_bytes() -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def reset_peak_rss() -> None:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def model_name(path: str) -> str:
    names = {
        "face_detection_short_range.tflite": "short-range", "face_detection_full_range.tflite": "full-range",
        "face_detection_full_range_sparse.tflite": "full-range-sparse", "face_detection_back.tflite": "back",
        "face_landmark.tflite": "face-mesh", "iris_landmark.tflite": "iris",
        "mediapipe_face_landmark.tflite": "face-mesh-mediapipe",
    }
    base = os.path.basename(path)
    return names.get(base, os.path.splitext(base)[0])


# ----------------------------------------------------------------------------------------------------------
# LiteRT

def run_litert(args) -> dict:
    from importlib import metadata
    from ai_edge_litert.interpreter import Interpreter

    runtime = f"ai-edge-litert {metadata.version('ai-edge-litert')} (XNNPACK)"
    results = []
    for path in args.model:
        reset_peak_rss()
        loads, interp = [], None
        for _ in range(args.loads):
            interp = None
            t0 = time.perf_counter_ns()
            candidate = Interpreter(model_path=path, num_threads=args.threads)
            candidate.allocate_tensors()
            loads.append((time.perf_counter_ns() - t0) / 1e6)
            interp = candidate
        for detail in interp.get_input_details():
            count = int(math.prod(detail["shape"]))
            interp.set_tensor(detail["index"], pattern(count).reshape(detail["shape"]))
        times, warm = timed_loop(interp.invoke, args.iterations, args.warmup, args.time_limit)
        entry = {"model": model_name(path), "path": path, "threads": args.threads, "runtime": runtime,
                 "load_ms": round(statistics.median(loads), 3), "load_ms_samples": [round(x, 3) for x in loads],
                 "warmup": warm, "peak_rss_bytes": peak_rss_bytes(),
                 "input_shapes": [[int(d) for d in x["shape"]] for x in interp.get_input_details()]}
        entry.update(summary(times))
        results.append(entry)
    return {"results": results, "detect": [],
            "settings": {"runtime": f"ai-edge-litert {metadata.version('ai-edge-litert')}, default XNNPACK delegate",
                         "iterations": args.iterations, "warmup": args.warmup, "time_limit_s": args.time_limit,
                         "input_pattern": "element i = ((i * 37) mod 255) / 127.5 - 1 (float32), written once"}}


# ----------------------------------------------------------------------------------------------------------
# MediaPipe Tasks

def build_frame(image_path: str, size: tuple[int, int] | None):
    import numpy as np
    from PIL import Image, ImageOps
    with Image.open(image_path) as im:
        rgb = np.ascontiguousarray(np.asarray(ImageOps.exif_transpose(im).convert("RGB"), dtype=np.uint8))
    h, w = rgb.shape[:2]
    name = os.path.basename(image_path)
    if size is None:
        return rgb, f"{name} ({w}x{h}) as decoded"
    return centre_on_canvas(rgb, name, size)


def centre_on_canvas(rgb, name: str, size: tuple[int, int]):
    """rgb (h, w, 3 uint8) centred on a gray-128 canvas of size (W, H), cropped centred if larger, and its recipe."""
    import numpy as np
    h, w = rgb.shape[:2]
    cw, ch = size
    left, top = int((cw - w) / 2), int((ch - h) / 2)  # truncation toward zero, as Swift's Int division
    canvas = np.full((ch, cw, 3), 128, dtype=np.uint8)
    y0, y1 = max(0, -top), min(h, ch - top)
    x0, x1 = max(0, -left), min(w, cw - left)
    if y0 < y1 and x0 < x1:
        canvas[y0 + top:y1 + top, x0 + left:x1 + left] = rgb[y0:y1, x0:x1]
    return canvas, f"{name} ({w}x{h}) centred at ({left}, {top}) on a {cw}x{ch} gray-128 canvas"


def run_mediapipe(args) -> dict:
    from importlib import metadata
    if args.one_cpu:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    sys.path.insert(0, os.path.join(ROOT, "Tests", "Goldens"))
    import mediapipe as mp
    from mediapipe_parity import add_metadata, make_detector  # noqa: E402 (the goldens' own helpers)

    size = parse_size(args.detect_size) if args.detect_size else None
    frame, recipe = build_frame(args.image, size)
    image = mp.Image(image_format=mp.ImageFormat.SRGB, data=frame)
    results = []
    with tempfile.TemporaryDirectory(prefix="blazeface-bench-mp-") as tmp:
        for path in args.model:
            with open(path, "rb") as f:
                data = add_metadata(f.read(), os.path.splitext(os.path.basename(path))[0])
            copy = os.path.join(tmp, os.path.basename(path))
            with open(copy, "wb") as f:
                f.write(data)
            with make_detector(copy) as detector:
                faces = len(detector.detect(image).detections)
                times, warm = timed_loop(lambda: detector.detect(image), args.iterations, args.warmup, args.time_limit)
            entry = {"model": model_name(path), "runtime": "mediapipe", "image": recipe,
                     "frame_width": int(frame.shape[1]), "frame_height": int(frame.shape[0]),
                     "one_cpu": bool(args.one_cpu), "warmup": warm, "faces": faces}
            entry.update(summary(times))
            results.append(entry)
    return {"results": [], "detect": results,
            "settings": {"runtime": f"mediapipe {metadata.version('mediapipe')} Tasks FaceDetector, IMAGE mode, "
                                    "min_detection_confidence 0.5, min_suppression_threshold 0.5",
                         "iterations": args.iterations, "warmup": args.warmup, "time_limit_s": args.time_limit}}


def parse_size(text: str) -> tuple[int, int]:
    w, h = text.lower().split("x")
    return int(w), int(h)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("litert", "mediapipe"):
        p = sub.add_parser(name)
        p.add_argument("--model", action="append", required=True, help="a .tflite path (repeatable)")
        p.add_argument("--iterations", type=int, default=200)
        p.add_argument("--warmup", type=int, default=20)
        p.add_argument("--time-limit", type=float, default=None)
        if name == "litert":
            p.add_argument("--threads", type=int, default=1)
            p.add_argument("--loads", type=int, default=5)
        else:
            p.add_argument("--image", required=True)
            p.add_argument("--detect-size", default=None)
            p.add_argument("--one-cpu", action="store_true")
    args = parser.parse_args()
    report = run_litert(args) if args.command == "litert" else run_mediapipe(args)
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
