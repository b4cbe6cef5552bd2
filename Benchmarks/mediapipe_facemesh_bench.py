#!/usr/bin/env python3
"""MediaPipe's side of Benchmarks/compare_mediapipe_facemesh.sh: times the legacy FaceMesh solution of mediapipe
0.10.21 on one frame, the way `blazeface-bench --pipelines` times our FaceLandmarker, and prints one JSON object.

  mediapipe_facemesh_bench.py frame --image IMAGE --out FRAME.png [--size 1280x720]
      Builds the benchmark frame: IMAGE (EXIF orientation applied, RGB) scaled with Pillow's bilinear filter to the
      canvas height (keeping its aspect ratio), centred on a gray-128 canvas of WxH (litert_bench.py's
      centre_on_canvas), saved as PNG. Both sides then decode this same file, so they see the same pixels.
      Prints {"frame": FRAME.png, "recipe": "..."}.

  mediapipe_facemesh_bench.py run --image FRAME.png [--iterations K] [--warmup W] [--time-limit S]
      mp.solutions.face_mesh.FaceMesh(static_image_mode=True|False, max_num_faces=1, refine_landmarks=True,
      min_detection_confidence=0.5, min_tracking_confidence=0.5): two graphs in this process, "static" (detector and
      mesh on every frame) and "video" (the same frame fed again and again: the solution advances its own timestamps
      by 33333 us, and after the first frame the region comes from the previous landmarks, with no detection). The
      process(frame) calls of the two alternate in blocks of 10, each call timed alone with perf_counter_ns; it
      includes what the solution does around the graph (packet creation, waiting, copying the landmarks out).
      The legacy solutions have no thread option (their graph runs on MediaPipe's executor threads, and the TFLite
      calculators' XNNPACK delegate on its own defaults): run the process pinned to one CPU (taskset -c N), as the
      runner does; the JSON records the CPUs it was allowed.

Statistics as blazeface-bench and litert_bench.py (whose summary() this reuses): median, min, nearest-rank p90.
Run with the python of a venv holding mediapipe==0.10.21 (.venv-mp-legacy/).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from importlib import metadata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from litert_bench import build_frame, centre_on_canvas, parse_size, summary  # noqa: E402 (same folder)

MODES = {"static": True, "video": False}  # pipeline name -> static_image_mode


def make_frame(args) -> dict:
    import numpy as np
    from PIL import Image, ImageOps
    width, height = parse_size(args.size)
    with Image.open(args.image) as im:
        upright = ImageOps.exif_transpose(im).convert("RGB")
    w, h = upright.size
    scaled_w = max(1, round(w * height / h))
    scaled = np.asarray(upright.resize((scaled_w, height), Image.BILINEAR), dtype=np.uint8)
    name = os.path.basename(args.image)
    canvas, placed = centre_on_canvas(scaled, f"{name} ({w}x{h}), Pillow-bilinear scaled",
                                      (width, height))
    Image.fromarray(canvas).save(args.out)
    return {"frame": args.out, "recipe": placed}


def alternating_blocks(calls: list, iterations: int, warmup: int, time_limit: float | None,
                       block: int = 10) -> tuple[list[list[int]], int]:
    """As blazeface-bench's AlternatingBlocks: `warmup` untimed rounds of every call (stopping after a quarter of
    the time limit), then blocks of `block` timed calls of each in turn until `iterations` or the time limit."""
    clock = time.perf_counter_ns
    warm_end = clock() + int(time_limit / 4 * 1e9) if time_limit else None
    warm = 0
    while warm < warmup and (warm_end is None or clock() < warm_end):
        for call in calls:
            call()
        warm += 1
    end = clock() + int(time_limit * 1e9) if time_limit else None
    times: list[list[int]] = [[] for _ in calls]
    done = 0
    while done < iterations and (end is None or clock() < end):
        count = min(block, iterations - done)
        for index, call in enumerate(calls):
            for _ in range(count):
                t0 = clock()
                call()
                times[index].append(clock() - t0)
        done += count
    return times, warm


def run(args) -> dict:
    import mediapipe as mp

    frame, recipe = build_frame(args.image, None)
    graphs = {name: mp.solutions.face_mesh.FaceMesh(static_image_mode=static, max_num_faces=1, refine_landmarks=True,
                                                     min_detection_confidence=0.5, min_tracking_confidence=0.5)
              for name, static in MODES.items()}
    try:
        def faces(name: str) -> int:
            return len(graphs[name].process(frame).multi_face_landmarks or [])
        first = {name: faces(name) for name in graphs}  # the video graph now tracks the face
        times, warm = alternating_blocks([lambda g=g: g.process(frame) for g in graphs.values()],
                                         args.iterations, args.warmup, args.time_limit)
        last = {name: faces(name) for name in graphs}
    finally:
        for graph in graphs.values():
            graph.close()
    entries = [({"pipeline": name, "static_image_mode": static, "faces_first": first[name], "faces": last[name]},
                samples) for (name, static), samples in zip(MODES.items(), times)]
    return timing_document(entries, "legacy FaceMesh (mp.solutions.face_mesh): max_num_faces=1, refine_landmarks=True, "
                                    "min_detection_confidence=0.5, min_tracking_confidence=0.5",
                           args, frame, recipe, warm)


def timing_document(entries: list[tuple[dict, list[int]]], solution: str, args, frame, recipe, warm: int) -> dict:
    """The JSON both MediaPipe scripts print: each pipeline's entry with the frame, the warm-up and the summary of
    its samples, and the settings of the run."""
    version = metadata.version("mediapipe")
    results = []
    for entry, samples in entries:
        entry = dict(entry, runtime=f"mediapipe {version}", image=recipe, frame_width=int(frame.shape[1]),
                     frame_height=int(frame.shape[0]), warmup=warm)
        entry.update(summary(samples))
        results.append(entry)
    return {"results": results,
            "settings": {"runtime": f"mediapipe {version} {solution}",
                         "cpus_allowed": sorted(os.sched_getaffinity(0)),
                         "iterations": args.iterations, "warmup": args.warmup, "time_limit_s": args.time_limit}}


def add_run_options(parser) -> None:
    """The options of both scripts' `run` command."""
    parser.add_argument("--image", required=True, help="the frame (from mediapipe_facemesh_bench.py frame)")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--time-limit", type=float, default=None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("frame")
    p.add_argument("--image", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--size", default="1280x720")
    add_run_options(sub.add_parser("run"))
    args = parser.parse_args()
    report = make_frame(args) if args.command == "frame" else run(args)
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
