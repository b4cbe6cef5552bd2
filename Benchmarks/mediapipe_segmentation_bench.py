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
block timing, the JSON document and the run options are that script's.
Run with the python of a venv holding mediapipe==0.10.21 (.venv-mp-legacy/).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from litert_bench import build_frame  # noqa: E402 (same folder)
from mediapipe_facemesh_bench import add_run_options, alternating_blocks, timing_document  # noqa: E402

MODELS = {"general": 0, "landscape": 1}  # pipeline name -> model_selection


def run(args) -> dict:
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
    entries = [({"pipeline": name, "model_selection": selection, "person_share_first": round(first[name], 4),
                 "person_share": round(last[name], 4)}, samples)
               for (name, selection), samples in zip(MODELS.items(), times)]
    return timing_document(entries, "legacy SelfieSegmentation (mp.solutions.selfie_segmentation), model_selection=0 "
                                    "and 1", args, frame, recipe, warm)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    add_run_options(sub.add_parser("run"))
    args = parser.parse_args()
    print(json.dumps(run(args), sort_keys=True))


if __name__ == "__main__":
    main()
