#!/usr/bin/env python3
"""Side-by-side benchmark of our person segmentation (blazeface-bench --pipelines --pipeline-set segmentation) and
MediaPipe 0.10.21's legacy SelfieSegmentation (Benchmarks/mediapipe_segmentation_bench.py), run by
Benchmarks/compare_mediapipe_segmentation.sh. Standard library only; everything but the pipelines, the notes and the
file names is compare_facemesh.py's (its Suite).

The frame is the face-mesh comparison's (Models/samples/astronaut.png scaled to 720x720, centred on a gray 1280x720
canvas; one PNG both sides decode). For every round our bench and MediaPipe's run, one process each, alternating which
goes first, both pinned to the same CPU with taskset. `segmentation` (PersonSegmenter, general model) is compared with
SelfieSegmentation(model_selection=0), `segmentation-landscape` with model_selection=1; both sides return the mask at
the frame's size as float32. Ratio: the median over rounds of the per-round ratio ours / MediaPipe; target ≤ 0.70.

Writes the Markdown report to stdout and to <results-dir>/latest-segmentation.md, every run's raw JSON and the summary
to <results-dir>/latest-segmentation.json, the chart to --svg (Documentation/benchmarks-segmentation.svg), and the
block between <!-- segmentation:begin --> and <!-- segmentation:end --> of each file of --docs (comma-separated;
Documentation/Benchmarks.md and Documentation/Segmentation.md).
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_facemesh  # noqa: E402 (same folder)
from compare import ROOT, fmt, median  # noqa: E402

PAIRS = [
    ("segmentation", "general", 0.70),
    ("segmentation-landscape", "landscape", 0.70),
]
MODE_TITLES = {"general": "model_selection=0", "landscape": "model_selection=1"}


def extra(o: dict, m: dict) -> dict:
    """Where our time goes (medians over rounds) and both sides' share of mask pixels above 0.5."""
    def med(key: str, entries: dict) -> float | None:
        return median([x[key] for x in entries.values() if x.get(key) is not None])
    return {"invoke_median_ms": med("invoke_median_ms", o),
            "model_resolution_median_ms": med("model_resolution_median_ms", o),
            "resize_median_ms": med("resize_median_ms", o),
            "person_share": med("person_share", o), "mediapipe_person_share": med("person_share", m)}


def notes(summary: list[dict]) -> list[str]:
    lines = ["", "Where our time goes, timed in the same process in alternating blocks with the pipeline: the bare model "
                 "invoke (`Interpreter.invoke()`), the segmenter at the model's resolution (`resolution: .model`: "
                 "conversion of the frame into the model's input, invoke, copy of the mask), and `MaskResizer` alone "
                 "(the model's mask to 1280x720, OpenCV's bilinear `cv::resize`, as MediaPipe):", "",
             "| pipeline | whole ms | invoke ms | at model resolution ms | mask resize ms | person share ours | MediaPipe |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for x in summary:
        lines.append(f"| {x['pipeline']} | {fmt(x['ours_median_ms'], 3)} | {fmt(x['invoke_median_ms'], 3)} | "
                     f"{fmt(x['model_resolution_median_ms'], 3)} | {fmt(x['resize_median_ms'], 3)} | "
                     f"{fmt(x['person_share'], 4)} | {fmt(x['mediapipe_person_share'], 4)} |")
    return lines


SEGMENTATION = compare_facemesh.Suite(
    name="segmentation", title="SelfieSegmentation", pairs=PAIRS, mode_titles=MODE_TITLES,
    mediapipe_script="mediapipe_segmentation_bench.py", pipeline_set="segmentation",
    runner="compare_mediapipe_segmentation.sh",
    chart_footer="1280x720 frame; mask at the frame's size, float32; one CPU.",
    notes=notes, extra=extra)

if __name__ == "__main__":
    if not any(a == "--docs" or a.startswith("--docs=") for a in sys.argv[1:]):
        sys.argv += ["--docs", ",".join(os.path.join(ROOT, "Documentation", f) for f in ("Benchmarks.md", "Segmentation.md"))]
    compare_facemesh.main(SEGMENTATION)
