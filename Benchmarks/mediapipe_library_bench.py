#!/usr/bin/env python3
"""MediaPipe's side of Benchmarks/compare_library.sh: a photo-library scan written the way MediaPipe's Python users
write one, timed as `blazeface-bench --library` times ours (images per second of whole passes over a folder,
reading and decoding each file included). Prints one JSON object shaped like the bench's `"library"` entry.

  detect   (mediapipe 1.2.2, .venv-libscan/) MediaPipe Tasks' FaceDetector, IMAGE mode, default options
           (min_detection_confidence 0.5, min_suppression_threshold 0.5), on the full-range BlazeFace
           (Models/face_detection_full_range.tflite with the input-normalization metadata Tasks requires, added in a
           temporary copy by Tests/Goldens/mediapipe_parity.py's add_metadata; Tasks picks the full-range anchors from
           the 192x192 input). Each file is read with mp.Image.create_from_file(path), MediaPipe's own reader.
  analyze  (mediapipe 0.10.21, .venv-libscan-legacy/) the legacy FaceMesh, mp.solutions.face_mesh.FaceMesh(
           static_image_mode=True, max_num_faces=10, refine_landmarks=True, min_detection_confidence=0.5): its graph
           runs MediaPipe's face detector (the short-range model: the legacy graph has no other) and the attention
           mesh (478 points) on each face. Each file is read as the FaceMesh documentation does,
           cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB).
  decode   the reading alone, no model (the decoders' share): mp.Image.create_from_file for JPEG, pillow-heif for
           HEIC, as detect reads them (run in either venv).
  HEIC     neither mp.Image.create_from_file nor OpenCV reads HEIC: such files are opened with Pillow and
           pillow-heif's plugin (pillow_heif.register_heif_opener(); Image.open(path).convert("RGB")), the usual
           recipe, and handed over as a numpy array (mp.Image(image_format=SRGB, data=...) for detect).

--workers 1 runs in this process; --workers N > 1 starts N worker processes (multiprocessing, spawn), each loading its
own model, and hands them the files one at a time (Pool.imap_unordered, chunksize 1): MediaPipe's Python API has no
thread option, and processes are how its users scan on several cores. One untimed pass, then --passes timed ones.
CPU time per picture: user + system time of this process and its workers (/proc/PID/stat), per file.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from importlib import metadata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXTENSIONS = {".jpg", ".jpeg", ".png", ".heic", ".heif"}
HEIF_EXTENSIONS = {".heic", ".heif"}

_worker = None  # (verb, model) of this process


def _tasks_detector(models_dir: str):
    sys.path.insert(0, os.path.join(ROOT, "Tests", "Goldens"))
    from mediapipe_parity import add_metadata, make_detector  # the goldens' own helpers
    with open(os.path.join(models_dir, "face_detection_full_range.tflite"), "rb") as f:
        data = add_metadata(f.read(), "face_detection_full_range")
    path = os.path.join(tempfile.mkdtemp(prefix="mp-library-"), "face_detection_full_range.tflite")
    with open(path, "wb") as f:
        f.write(data)
    return make_detector(path)


def _face_mesh():
    import mediapipe as mp
    return mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=10, refine_landmarks=True,
                                           min_detection_confidence=0.5)


def init_worker(verb: str, models_dir: str) -> None:
    global _worker
    import pillow_heif
    pillow_heif.register_heif_opener()
    model = {"detect": _tasks_detector, "analyze": lambda _: _face_mesh(), "decode": lambda _: None}[verb](models_dir)
    _worker = (verb, model)


def _heif_rgb(path: str):
    import numpy as np
    from PIL import Image
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


def scan(path: str) -> int:
    """Reads, decodes and runs one file through this process's pipeline; returns the faces found."""
    verb, model = _worker
    heif = os.path.splitext(path)[1].lower() in HEIF_EXTENSIONS
    if verb in ("detect", "decode"):
        import mediapipe as mp
        if heif:
            image = mp.Image(image_format=mp.ImageFormat.SRGB, data=_heif_rgb(path))
        else:
            image = mp.Image.create_from_file(path)
        return 0 if model is None else len(model.detect(image).detections)
    import cv2
    if heif:
        rgb = _heif_rgb(path)
    else:
        bgr = cv2.imread(path)
        if bgr is None:
            raise RuntimeError(f"{path}: OpenCV cannot read it")
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    return len(model.process(rgb).multi_face_landmarks or [])


def cpu_seconds(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / ticks


def files(folder: str) -> list[str]:
    paths = []
    for base, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        paths += [os.path.join(base, n) for n in names
                  if not n.startswith(".") and os.path.splitext(n)[1].lower() in EXTENSIONS]
    if not paths:
        sys.exit(f"mediapipe_library_bench: no image files in {folder}")
    return sorted(paths)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--library", required=True, help="the folder to scan")
    ap.add_argument("--verb", choices=["detect", "analyze", "decode"], required=True)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--models-dir", default=os.environ.get("BLAZEFACE_MODELS", os.path.join(ROOT, "Models")))
    args = ap.parse_args()
    paths = files(args.library)

    pool = None
    if args.workers == 1:
        init_worker(args.verb, args.models_dir)
        pids = [os.getpid()]
        run = lambda: [scan(p) for p in paths]  # noqa: E731
    else:
        pool = multiprocessing.get_context("spawn").Pool(args.workers, init_worker, (args.verb, args.models_dir))
        pids = [p.pid for p in multiprocessing.active_children()] + [os.getpid()]
        run = lambda: list(pool.imap_unordered(scan, paths, chunksize=1))  # noqa: E731
    rates, cpu, faces = [], [], None
    for n in range(args.passes + 1):
        c0, t0 = cpu_seconds(pids), time.perf_counter()
        found = run()
        seconds, cpu_s = time.perf_counter() - t0, cpu_seconds(pids) - c0
        if n == 0:
            continue
        rates.append(len(paths) / seconds)
        cpu.append(cpu_s * 1000 / len(paths))
        faces = faces or (sum(found), sum(1 for f in found if f > 0))
    if pool:
        pool.close()
        pool.join()

    mp_version = metadata.version("mediapipe")
    if args.verb == "detect":
        configuration = (f"mediapipe {mp_version} Tasks FaceDetector (IMAGE mode, min_detection_confidence 0.5, "
                         "min_suppression_threshold 0.5), full-range model; mp.Image.create_from_file")
    elif args.verb == "decode":
        configuration = f"mediapipe {mp_version}: the reading alone (mp.Image.create_from_file), no model"
    else:
        configuration = (f"mediapipe {mp_version} legacy FaceMesh(static_image_mode=True, max_num_faces=10, "
                         "refine_landmarks=True): short-range detector + attention mesh; cv2.imread")
    configuration += f"; HEIC through pillow-heif {metadata.version('pillow-heif')}"
    sizes = [os.path.getsize(p) for p in paths]
    kinds: dict[str, int] = {}
    for p in paths:
        kinds[os.path.splitext(p)[1].lower().lstrip(".")] = kinds.get(os.path.splitext(p)[1].lower().lstrip("."), 0) + 1
    print(json.dumps({"library": {
        "folder": args.library, "files": len(paths), "extensions": kinds, "total_bytes": sum(sizes),
        "passes": args.passes, "results": [{
            "verb": args.verb, "configuration": configuration, "threads": args.workers,
            "workers": "in-process" if args.workers == 1 else f"{args.workers} processes (multiprocessing, spawn)",
            "images_per_second_passes": [round(r, 2) for r in rates],
            "images_per_second": round(statistics.median(rates), 2),
            "cpu_ms_per_image": round(statistics.median(cpu), 2),
            "faces": faces[0], "images_with_faces": faces[1]}]}}))


if __name__ == "__main__":
    main()
