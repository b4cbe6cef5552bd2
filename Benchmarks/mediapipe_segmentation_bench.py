#!/usr/bin/env python3
"""MediaPipe's side of Benchmarks/compare_mediapipe_segmentation.sh: times the legacy SelfieSegmentation solution of
mediapipe 0.10.21 on one frame, the way `blazeface-bench --pipelines ... --pipeline-set segmentation` times our
PersonSegmenter, and prints one JSON object.

  mediapipe_segmentation_bench.py run --image FRAME.png [--iterations K] [--warmup W] [--time-limit S]
      mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=0) ("general") and (model_selection=1)
      ("landscape"): two graphs in this process, whose process(frame) calls alternate in blocks of 10, each call
      timed alone with perf_counter_ns. A call returns `segmentation_mask`, float32 at the frame's size, so it
      includes what the solution does around the graph (packet creation, waiting, copying the mask out). The legacy
      solutions have no thread option: run the process pinned to one CPU (taskset -c N), as the runner does; the
      JSON records the CPUs it was allowed.

The frame comes from `mediapipe_facemesh_bench.py frame` (the same 1280x720 canvas as the face-mesh comparison); the
block timing is that script's alternating_blocks(), the statistics litert_bench.py's summary().
Run with the python of a venv holding mediapipe==0.10.21 (.venv-mp-legacy/).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from litert_bench import build_frame, summary  # noqa: E402 (same folder)
from mediapipe_facemesh_bench import alternating_blocks  # noqa: E402

MODELS = {"general": 0, "landscape": 1}  # pipeline name -> model_selection


def run(args) -> dict:
    from importlib import metadata
    import mediapipe as mp

    frame, recipe = build_frame(args.image, None)
    graphs = {name: mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=selection)
              for name, selection in MODELS.items()}
    try:
        def share(name: str) -> float:
            mask = graphs[name].process(frame).segmentation_mask
            return float((mask > 0.5).mean())
        first = {name: share(name) for name in graphs}
        times, warm = alternating_blocks([lambda g=g: g.process(frame) for g in graphs.values()],
                                         args.iterations, args.warmup, args.time_limit)
        last = {name: share(name) for name in graphs}
    finally:
        for graph in graphs.values():
            graph.close()
    version = metadata.version("mediapipe")
    results = []
    for (name, selection), samples in zip(MODELS.items(), times):
        entry = {"pipeline": name, "runtime": f"mediapipe {version}", "model_selection": selection,
                 "image": recipe, "frame_width": int(frame.shape[1]), "frame_height": int(frame.shape[0]),
                 "person_share_first": round(first[name], 4), "person_share": round(last[name], 4), "warmup": warm}
        entry.update(summary(samples))
        results.append(entry)
    return {"results": results,
            "settings": {"runtime": f"mediapipe {version} legacy SelfieSegmentation (mp.solutions.selfie_segmentation), "
                                    "model_selection=0 and 1",
                         "cpus_allowed": sorted(os.sched_getaffinity(0)),
                         "iterations": args.iterations, "warmup": args.warmup, "time_limit_s": args.time_limit}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run")
    p.add_argument("--image", required=True, help="the frame (from mediapipe_facemesh_bench.py frame)")
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--time-limit", type=float, default=None)
    args = parser.parse_args()
    print(json.dumps(run(args), sort_keys=True))


if __name__ == "__main__":
    main()
