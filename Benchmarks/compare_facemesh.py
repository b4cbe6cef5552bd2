#!/usr/bin/env python3
"""Side-by-side benchmark of our face-mesh pipelines (blazeface-bench --pipelines) and MediaPipe 0.10.21's legacy
FaceMesh (Benchmarks/mediapipe_facemesh_bench.py), run by Benchmarks/compare_mediapipe_facemesh.sh. Standard
library only; the helpers, the Markdown block update and the chart renderer are compare.py's.

It builds one 1280x720 frame (a PNG both sides decode), then for every round runs our bench and MediaPipe's, one
process each, alternating (the side that goes first swaps every round), both pinned to the same CPU with taskset.
Per pipeline: the medians over rounds of each run's median and p90, and the ratio ours / MediaPipe as the median
over rounds of the per-round ratio: `landmarks` (detect + mesh) against MediaPipe's static-image mode,
`landmarks-tracking` (the mesh from the previous frame's points) and `tracking` (BlazeTracking's FaceTracker: the
same, plus IDs, the identity check and One-Euro smoothing) against its video mode.

Writes the Markdown report to stdout and to <results-dir>/latest-facemesh.md, every run's raw JSON and the summary to
<results-dir>/latest-facemesh.json, the chart to --svg, and the block between <!-- facemesh:begin --> and
<!-- facemesh:end --> of --docs (Documentation/Benchmarks.md).

The measuring, summary and output code is shared with Benchmarks/compare_segmentation.py through `Suite`: what differs
between the two comparisons (pipelines, MediaPipe's script, file names, report notes) is one Suite value each.
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import shutil
import sys
import tempfile
import time
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare import (OURS_COLOR, PEER_COLOR, ROOT, bar_panels_svg, fmt, git_info, log, machine_info,  # noqa: E402
                     measured_sentence, median, run_json, update_docs)

# (our pipeline, MediaPipe's mode or None, target ours / MediaPipe or None), in report order.
PAIRS = [
    ("detect", None, None),
    ("landmarks", "static", 0.50),
    ("landmarks-tracking", "video", 0.50),
    ("tracking", "video", 0.50),
]
MODE_TITLES = {"static": "static-image mode", "video": "video mode"}


@dataclasses.dataclass
class Suite:
    """One side-by-side comparison: our `blazeface-bench --pipelines --pipeline-set <pipeline_set>` against a
    MediaPipe script's `run` command, pipeline by pipeline."""
    name: str  # results/latest-<name>.md and .json, Documentation/benchmarks-<name>.svg, the <name>:begin docs block
    title: str  # MediaPipe's solution, for the chart's title
    pairs: list  # (our pipeline, MediaPipe's pipeline or None, target ours / MediaPipe or None), in report order
    mode_titles: dict  # MediaPipe's pipeline -> how the report names it
    mediapipe_script: str  # in Benchmarks/, with a `run --image FRAME ...` command
    pipeline_set: str  # blazeface-bench --pipeline-set
    runner: str  # the shell script that runs this comparison, for "Reproduce"
    chart_footer: str  # the chart's first footer line, before "Medians of N rounds ..."
    notes: Callable[[list[dict]], list[str]]  # the report's extra notes, from the summary
    extra: Callable[[dict, dict], dict] = lambda ours, theirs: {}  # more summary fields from the entries by round


def facemesh_notes(summary: list[dict]) -> list[str]:
    notes = []
    for name in ("landmarks-tracking", "tracking"):
        tracking = next((x for x in summary if x["pipeline"] == name), None)
        if tracking and tracking["tracked_throughout"] is False:
            notes.append(f"**{name} lost the face on some frame** (the detector ran again there).")
    lost = [x["pipeline"] for x in summary if x["faces"] == 0 or x["mediapipe_faces"] == 0]
    if lost:
        notes.append(f"**No face found** in: {', '.join(lost)}.")
    invoke = invoke_row()
    if invoke:
        notes += ["", f"The mesh model alone, `mediapipe_face_landmark.tflite` (`face-mesh-mediapipe`), one thread, from "
                      f"`Benchmarks/compare_litert.sh` ({invoke['date_utc']}, commit `{invoke['commit']}`): ours "
                      f"{fmt(invoke['ours_median_ms'], 3)} ms, LiteRT {fmt(invoke['litert_median_ms'], 3)} ms, "
                      f"ours / LiteRT **{fmt(invoke['ratio'])}** (target ≤ {invoke['target']:.2f}, "
                      f"{'pass' if invoke['pass'] else '**fail**'}). The attention mesh the pipelines run has no LiteRT figure: "
                      "it needs MediaPipe's custom operators, which LiteRT does not have."]
    return notes


def facemesh_extra(o: dict, m: dict) -> dict:
    return {"faces": min((x["faces"] for x in o.values()), default=None),
            "tracked_throughout": all(x.get("tracked_throughout", True) for x in o.values()) if o else None,
            "mediapipe_faces": min((x["faces"] for x in m.values()), default=None)}


FACEMESH = Suite(
    name="facemesh", title="FaceMesh", pairs=PAIRS, mode_titles=MODE_TITLES,
    mediapipe_script="mediapipe_facemesh_bench.py", pipeline_set="face", runner="compare_mediapipe_facemesh.sh",
    chart_footer="1280x720 frame, one face; attention mesh (refine on), short-range detector, one CPU.",
    notes=facemesh_notes, extra=facemesh_extra)


def main(suite: Suite = FACEMESH) -> None:
    ap = argparse.ArgumentParser(description=sys.modules["__main__"].__doc__.split("\n\n")[0])
    ap.add_argument("--bench", default=os.path.join(ROOT, ".build", "release", "blazeface-bench"))
    ap.add_argument("--mediapipe-python", help="the python of a venv with mediapipe==0.10.21 (required unless --render-only)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--time-limit", type=float, default=5.0)
    ap.add_argument("--cpu", type=int, default=0, help="pin both sides to this CPU with taskset (-1: do not pin)")
    ap.add_argument("--models-dir", default=os.path.join(ROOT, "Models"))
    ap.add_argument("--image", default=os.path.join(ROOT, "Models", "samples", "astronaut.png"))
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--results-dir", default=os.path.join(HERE, "results"))
    ap.add_argument("--svg", default=os.path.join(ROOT, "Documentation", f"benchmarks-{suite.name}.svg"))
    ap.add_argument("--docs", default=os.path.join(ROOT, "Documentation", "Benchmarks.md"))
    ap.add_argument("--render-only", action="store_true",
                    help=f"measure nothing: rebuild the report, chart and docs from <results-dir>/latest-{suite.name}.json")
    args = ap.parse_args()
    if args.render_only:
        with open(os.path.join(args.results_dir, f"latest-{suite.name}.json")) as f:
            saved = json.load(f)
        write_outputs(suite, args, saved["info"], saved["runs"])
        return
    if not args.mediapipe_python:
        ap.error("--mediapipe-python is required")

    pin: list[str] = []
    if args.cpu >= 0:
        if shutil.which("taskset"):
            pin = ["taskset", "-c", str(args.cpu)]
        else:
            log("taskset not found: the processes are not pinned")
    common = ["--iterations", str(args.iterations), "--warmup", str(args.warmup), "--time-limit", str(args.time_limit)]
    started = time.time()
    load_before = os.getloadavg()
    runs: list[dict] = []  # {"round", "side", "result"}: the JSON each process printed
    with tempfile.TemporaryDirectory(prefix=f"blazeface-{suite.name}-") as tmp:
        made = run_json([args.mediapipe_python, os.path.join(HERE, "mediapipe_facemesh_bench.py"), "frame",
                         "--image", args.image, "--size", args.size,
                         "--out", os.path.join(tmp, f"frame-{args.size}.png")])
        if not made:
            sys.exit("could not build the frame")
        frame = made["frame"]

        def ours() -> dict | None:
            return run_json([*pin, args.bench, "--json", "--pipelines", frame, "--pipeline-set", suite.pipeline_set,
                             "--threads", "1", "--models-dir", args.models_dir, *common])

        def mediapipe() -> dict | None:
            return run_json([*pin, args.mediapipe_python, os.path.join(HERE, suite.mediapipe_script), "run",
                             "--image", frame, *common])

        for r in range(args.rounds):
            sides = [("ours", ours), ("mediapipe", mediapipe)]
            if r % 2 == 1:
                sides.reverse()
            for side, fn in sides:
                runs.append({"round": r, "side": side, "result": fn()})
            log(f"round {r + 1}/{args.rounds}: " + ", ".join(
                f"{x['side']} {e.get('pipeline')} {fmt(e.get('median_ms'), 3)} ms"
                for x in runs if x["round"] == r and x["result"] for e in x["result"]["results"]))

    info = {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "git": git_info(), "machine": machine_info(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "duration_s": round(time.time() - started, 1),
        "frame": made["recipe"],
        "pinned": " ".join(pin) or None,
        "settings": {"rounds": args.rounds, "iterations": args.iterations, "warmup": args.warmup,
                     "time_limit_s": args.time_limit, "image": os.path.relpath(args.image, ROOT), "size": args.size},
        "ours": "; ".join(dict.fromkeys(e["configuration"] for x in runs if x["side"] == "ours" and x["result"]
                                        for e in x["result"]["results"] if "configuration" in e)) or None,
        "mediapipe": next((x["result"]["settings"]["runtime"] for x in runs
                           if x["side"] == "mediapipe" and x["result"]), None),
    }
    write_outputs(suite, args, info, runs)


def entries(runs: list[dict], side: str, pipeline: str) -> dict[int, dict]:
    """Round -> the entry of `pipeline` in that round's run of `side`."""
    out = {}
    for x in runs:
        if x["side"] == side and x["result"]:
            for e in x["result"]["results"]:
                if e.get("pipeline") == pipeline:
                    out[x["round"]] = e
    return out


def summarize(suite: Suite, runs: list[dict]) -> list[dict]:
    summary = []
    for pipeline, mode, target in suite.pairs:
        o = entries(runs, "ours", pipeline)
        m = entries(runs, "mediapipe", mode) if mode else {}
        ratios = [o[k]["median_ms"] / m[k]["median_ms"] for k in o if k in m]
        ratio = median(ratios)
        summary.append({
            "pipeline": pipeline, "mediapipe_mode": mode, "rounds": len(o),
            "ours_median_ms": median([x["median_ms"] for x in o.values()]),
            "ours_p90_ms": median([x["p90_ms"] for x in o.values()]),
            "ours_min_ms": min((x["min_ms"] for x in o.values()), default=None),
            "allocations_per_frame": max((x["allocations_per_frame"] for x in o.values()), default=None),
            "mediapipe_median_ms": median([x["median_ms"] for x in m.values()]),
            "mediapipe_p90_ms": median([x["p90_ms"] for x in m.values()]),
            "ratio": ratio, "ratio_min": min(ratios, default=None), "ratio_max": max(ratios, default=None),
            "target": target, "pass": None if target is None or ratio is None else ratio <= target,
            **suite.extra(o, m),
        })
    return summary


def invoke_row() -> dict | None:
    """MediaPipe's face_landmark.tflite, one thread, from compare_litert.sh's latest.json (if it measured it)."""
    try:
        with open(os.path.join(HERE, "results", "latest.json")) as f:
            saved = json.load(f)
    except (OSError, json.JSONDecodeError):
        return None
    row = next((x for x in saved.get("summary", []) if x["model"] == "face-mesh-mediapipe" and x["threads"] == 1), None)
    return row and dict(row, date_utc=saved["info"]["date_utc"], commit=saved["info"]["git"]["commit"])


def report(suite: Suite, summary: list[dict], info: dict) -> str:
    s = info["settings"]
    lines = [
        measured_sentence(info) + " "
        f"{s['rounds']} alternating round{'s' if s['rounds'] != 1 else ''}, each side in its own process"
        f"{', both pinned to one CPU (`' + info['pinned'] + '`)' if info['pinned'] else ''}; per process, "
        f"{s['warmup']} warm-up and {s['iterations']} timed frames per pipeline in alternating blocks of 10 (stopping "
        f"early after {s['time_limit_s']:g} s). The script took {info['duration_s']:.0f} s.",
        "",
        f"Frame: {info['frame']}, one PNG decoded by both sides.",
        f"Ours: `{info['ours']}`." if info["ours"] else "Ours: no run succeeded.",
        f"MediaPipe: {info['mediapipe']}, `process(frame)`." if info["mediapipe"] else "MediaPipe: no run succeeded.",
        "",
        "| pipeline | ours ms | ours p90 ms | allocations / frame | MediaPipe | MediaPipe ms | MediaPipe p90 ms "
        "| ours / MediaPipe | range over rounds | target | |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for x in summary:
        verdict = "" if x["target"] is None else ("n/a" if x["ratio"] is None else ("pass" if x["pass"] else "**fail**"))
        mode = suite.mode_titles.get(x["mediapipe_mode"], "–")
        lines.append(
            f"| {x['pipeline']} | {fmt(x['ours_median_ms'], 3)} | {fmt(x['ours_p90_ms'], 3)} | "
            f"{fmt(x['allocations_per_frame'], 0)} | {mode} | {fmt(x['mediapipe_median_ms'], 3, '–')} | "
            f"{fmt(x['mediapipe_p90_ms'], 3, '–')} | {'–' if x['ratio'] is None else '**' + fmt(x['ratio'], 3) + '**'} | "
            f"{'–' if x['ratio'] is None else fmt(x['ratio_min']) + '–' + fmt(x['ratio_max'])} | "
            f"{'–' if x['target'] is None else '≤ %.2f' % x['target']} | {verdict} |")
    notes = ["", "ms: median over rounds of each run's median time per frame (p90: of each run's nearest-rank p90). "
                 "ours / MediaPipe: median over rounds of the per-round ratio (three decimals, so that a verdict at the target "
                 "reads right). Allocations: heap allocations of every "
                 "thread per frame, the largest over rounds."]
    notes += suite.notes(summary)
    notes += ["", f"Reproduce: `Benchmarks/{suite.runner}` (raw runs: "
                  f"`Benchmarks/results/latest-{suite.name}.json`)."]
    return "\n".join(lines + notes)


def chart(suite: Suite, summary: list[dict], info: dict) -> str:
    panels = []
    for x in summary:
        if x["mediapipe_mode"] is None:
            continue
        title = f"{x['pipeline']} vs {suite.mode_titles[x['mediapipe_mode']]}"
        ratio = x["ratio"]
        panels.append({"title": title, "groups": [{
            "label": "1 thread / 1 CPU",
            "values": [x["ours_median_ms"], x["mediapipe_median_ms"]],
            "tooltips": [f"{x['pipeline']}, ours", f"MediaPipe, {suite.mode_titles[x['mediapipe_mode']]}"],
            "ratio": None if ratio is None else f"ratio {ratio:.2f} (target ≤ {x['target']:.2f})",
            "ok": x["pass"]}]})
    s = info["settings"]
    footer = [f"{suite.chart_footer} Medians of "
              f"{s['rounds']} alternating rounds on a shared {info['machine']['cpus']}-CPU {info['machine']['cpu']} machine.",
              f"{info['date_utc']}, commit {info['git']['commit']}{' (+ local changes)' if info['git']['dirty'] else ''}. "
              f"Reproduce: Benchmarks/{suite.runner}; numbers in Benchmarks/results/latest-{suite.name}.md."]
    return bar_panels_svg(f"swift-blazeface vs MediaPipe 0.10.21 {suite.title}: milliseconds per frame, lower is better",
                          [("swift-blazeface", OURS_COLOR), ("MediaPipe 0.10.21", PEER_COLOR)],
                          "ratio = ours / MediaPipe", panels, footer, cols=2, panel_width=450)


def write_outputs(suite: Suite, args, info: dict, runs: list[dict]) -> None:
    summary = summarize(suite, runs)
    markdown = report(suite, summary, info)
    print(markdown)
    os.makedirs(args.results_dir, exist_ok=True)
    with open(os.path.join(args.results_dir, f"latest-{suite.name}.md"), "w") as f:
        f.write(markdown + "\n")
    with open(os.path.join(args.results_dir, f"latest-{suite.name}.json"), "w") as f:
        text = json.dumps({"info": info, "summary": summary, "runs": runs}, indent=1, sort_keys=True)
        f.write(text.replace(ROOT.rstrip("/") + "/", "") + "\n")
    if args.svg:
        with open(args.svg, "w") as f:
            f.write(chart(suite, summary, info))
    for docs in args.docs.split(",") if args.docs else []:
        if os.path.exists(docs):
            update_docs(docs, markdown, block=suite.name)
    log(f"wrote {os.path.relpath(args.results_dir, ROOT)}/latest-{suite.name}.md, latest-{suite.name}.json"
        + (f", {os.path.relpath(args.svg, ROOT)}" if args.svg else "") + f" (measuring took {info['duration_s']:.0f} s)")


if __name__ == "__main__":
    main()
