#!/usr/bin/env python3
"""Side-by-side benchmark of blazeface-bench and LiteRT (and MediaPipe Tasks' detector), run by
Benchmarks/compare_litert.sh. Standard library only.

For every round, model and thread count it runs our bench and LiteRT's, one process each, alternating
(the side that goes first swaps every round, so a slow drift in the machine's load hits both alike).
Each process loads the model, fills the input with the same fixed pattern, warms up and times invoke().
Per (model, threads): our median and LiteRT's median are the medians over rounds of each run's median,
and the ratio is the median over rounds of the per-round ratio ours/LiteRT.

Writes the Markdown report to stdout and to <results-dir>/latest.md, every run's raw JSON and the summary
to <results-dir>/latest.json, the chart to --svg, and replaces the block between
<!-- results:begin --> and <!-- results:end --> in --docs (Documentation/Benchmarks.md) with the report.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from html import escape

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

MODELS = {  # name -> file, in report order
    "short-range": "face_detection_short_range.tflite",
    "full-range": "face_detection_full_range.tflite",
    "full-range-sparse": "face_detection_full_range_sparse.tflite",
    "back": "face_detection_back.tflite",
    "face-mesh": "face_landmark.tflite",
    "face-mesh-mediapipe": "mediapipe_face_landmark.tflite",  # the mesh of MediaPipe 0.10.21's wheel
    "iris": "iris_landmark.tflite",
}
# ours/LiteRT; every other model: 1.00. The face meshes: the face-mesh pipelines' target (Benchmarks.md, Face mesh).
TARGETS = {"short-range": 0.80, "face-mesh": 0.80, "face-mesh-mediapipe": 0.80}
DEFAULT_TARGET = 1.00


def targets_text(others: str = "others") -> str:
    """"short-range ≤ 0.80, others ≤ 1.00" from TARGETS."""
    by_target: dict[float, list[str]] = {}
    for model, target in TARGETS.items():
        by_target.setdefault(target, []).append(model)
    def names(models: list[str]) -> str:
        return models[0] if len(models) == 1 else ", ".join(models[:-1]) + " and " + models[-1]
    return ", ".join(f"{names(models)} ≤ {target:.2f}" for target, models in by_target.items()) \
        + f", {others} ≤ {DEFAULT_TARGET:.2f}"
MEDIAPIPE_MODELS = ["short-range", "full-range"]  # MediaPipe Tasks decodes the 256-px back model wrongly


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run_json(cmd: list[str]) -> dict | None:
    """Runs a command that prints one JSON object on its last stdout line; None (and a log line) on failure."""
    try:
        res = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        log(f"  timed out: {' '.join(cmd)}")
        return None
    if res.returncode != 0:
        log(f"  failed ({res.returncode}): {' '.join(cmd)}\n  {res.stderr.strip()[-2000:]}")
        return None
    lines = [line for line in res.stdout.strip().splitlines() if line.startswith("{")]
    try:
        return json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        log(f"  no JSON from: {' '.join(cmd)}\n  {res.stdout[-500:]}")
        return None


def median(values: list[float]) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(x, digits=2, none="n/a") -> str:
    return none if x is None else f"{x:.{digits}f}"


def machine_info() -> dict:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    flags = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    have = set(line.split(":", 1)[1].split())
                    flags = " ".join(x for x in ("avx2", "fma", "f16c", "avx512f") if x in have)
                    break
    except OSError:
        pass
    return {"cpu": cpu, "cpu_flags": flags, "cpus": os.cpu_count(), "platform": platform.platform()}


def git_info() -> dict:
    def git(*args):
        try:
            return subprocess.run(["git", *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True).stdout.strip()
        except OSError:
            return ""
    return {"commit": git("rev-parse", "--short=12", "HEAD"),
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no", "--", "Sources", "Package.swift"))}


# ----------------------------------------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench", default=os.path.join(ROOT, ".build", "release", "blazeface-bench"))
    ap.add_argument("--litert-python", help="the python of a venv with ai-edge-litert (required unless --render-only)")
    ap.add_argument("--mediapipe-python", default=None)
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--loads", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=3.0)
    ap.add_argument("--models-dir", default=os.path.join(ROOT, "Models"))
    ap.add_argument("--detect-image", default=os.path.join(ROOT, "Models", "samples", "astronaut.png"))
    ap.add_argument("--detect-size", default="1280x720")
    ap.add_argument("--results-dir", default=os.path.join(HERE, "results"))
    ap.add_argument("--svg", default=os.path.join(ROOT, "Documentation", "benchmarks.svg"))
    ap.add_argument("--docs", default=os.path.join(ROOT, "Documentation", "Benchmarks.md"))
    ap.add_argument("--render-only", action="store_true",
                    help="measure nothing: rebuild the report, chart and docs from <results-dir>/latest.json")
    args = ap.parse_args()
    if args.render_only:
        with open(os.path.join(args.results_dir, "latest.json")) as f:
            saved = json.load(f)
        write_outputs(args, saved["info"], saved["runs"], saved["detect_runs"])
        return
    if not args.litert_python:
        ap.error("--litert-python is required")

    models = [m.strip() for m in args.models.split(",") if m.strip()]
    for m in models:
        if m not in MODELS:
            sys.exit(f"unknown model {m}; use {', '.join(MODELS)}")
    threads = [int(t) for t in args.threads.split(",")]
    common = ["--iterations", str(args.iterations), "--warmup", str(args.warmup), "--time-limit", str(args.time_limit)]
    started = time.time()
    load_before = os.getloadavg()

    def ours(model: str, n: int) -> dict | None:
        out = run_json([args.bench, "--json", "--model", model, "--threads", str(n), "--loads", str(args.loads),
                        "--models-dir", args.models_dir, *common])
        return out["results"][0] if out and out.get("results") else None

    def litert(model: str, n: int) -> dict | None:
        out = run_json([args.litert_python, os.path.join(HERE, "litert_bench.py"), "litert",
                        "--model", os.path.join(args.models_dir, MODELS[model]), "--threads", str(n),
                        "--loads", str(args.loads), *common])
        return out["results"][0] if out and out.get("results") else None

    def ours_detect() -> list[dict]:
        cmd = [args.bench, "--json", "--detect-only", "--detect", args.detect_image, "--threads", "1",
               "--models-dir", args.models_dir, *common]
        if args.detect_size:
            cmd += ["--detect-size", args.detect_size]
        for m in MEDIAPIPE_MODELS:
            cmd += ["--model", m]
        out = run_json(cmd)
        return out["detect"] if out else []

    def mediapipe_detect() -> list[dict]:
        cmd = [args.mediapipe_python, os.path.join(HERE, "litert_bench.py"), "mediapipe", "--one-cpu",
               "--image", args.detect_image, *common]
        if args.detect_size:
            cmd += ["--detect-size", args.detect_size]
        for m in MEDIAPIPE_MODELS:
            cmd += ["--model", os.path.join(args.models_dir, MODELS[m])]
        out = run_json(cmd)
        return out["detect"] if out else []

    runs: list[dict] = []  # {"round", "side", "model", "threads", "result"}
    detect_runs: list[dict] = []
    for r in range(args.rounds):
        for model in models:
            for n in threads:
                sides = [("ours", ours), ("litert", litert)]
                if r % 2 == 1:
                    sides.reverse()
                got = {}
                for side, fn in sides:
                    got[side] = fn(model, n)
                    runs.append({"round": r, "side": side, "model": model, "threads": n, "result": got[side]})
                o, l = got["ours"], got["litert"]
                log(f"round {r + 1}/{args.rounds} {model:17s} {n} thread{'s' if n > 1 else ' '}: "
                    f"ours {fmt(o and o['median_ms'], 3)} ms, LiteRT {fmt(l and l['median_ms'], 3)} ms")
        # The whole detector against MediaPipe Tasks (one thread / one CPU), alternating the same way.
        sides = [("ours", ours_detect)]
        if args.mediapipe_python:
            sides.append(("mediapipe", mediapipe_detect))
            if r % 2 == 1:
                sides.reverse()
        for side, fn in sides:
            for entry in fn():
                detect_runs.append({"round": r, "side": side, "model": entry["model"], "result": entry})
        log(f"round {r + 1}/{args.rounds} detect: " + ", ".join(
            f"{d['side']} {d['model']} {fmt(d['result']['median_ms'], 3)} ms" for d in detect_runs if d["round"] == r))

    elapsed = time.time() - started
    info = {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "git": git_info(), "machine": machine_info(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "duration_s": round(elapsed, 1),
        "settings": {"models": models, "rounds": args.rounds, "iterations": args.iterations, "warmup": args.warmup,
                     "time_limit_s": args.time_limit, "loads": args.loads, "threads": threads,
                     "detect_image": os.path.relpath(args.detect_image, ROOT), "detect_size": args.detect_size,
                     "mediapipe": bool(args.mediapipe_python)},
        "litert": next((x["result"].get("runtime") for x in runs if x["side"] == "litert" and x["result"]), None),
    }
    write_outputs(args, info, runs, detect_runs)


def write_outputs(args, info: dict, runs: list[dict], detect_runs: list[dict]) -> None:
    """The report on stdout and in latest.md, latest.json, the chart, the results block of the docs."""
    models, threads = info["settings"]["models"], info["settings"]["threads"]
    summary, detect_summary = summarize(runs, detect_runs, models, threads)
    markdown = report(summary, detect_summary, info, args)
    print(markdown)
    os.makedirs(args.results_dir, exist_ok=True)
    with open(os.path.join(args.results_dir, "latest.md"), "w") as f:
        f.write(markdown + "\n")
    with open(os.path.join(args.results_dir, "latest.json"), "w") as f:
        document = {"info": info, "summary": summary, "detect_summary": detect_summary, "runs": runs,
                    "detect_runs": detect_runs}
        # Paths relative to the repository, so the committed results name no folder of this machine.
        text = json.dumps(document, indent=1, sort_keys=True).replace(ROOT.rstrip("/") + "/", "")
        f.write(text + "\n")
    if args.svg:
        with open(args.svg, "w") as f:
            f.write(chart(summary, models, threads, info))
    if args.docs and os.path.exists(args.docs):
        update_docs(args.docs, markdown)
    log(f"wrote {os.path.relpath(args.results_dir, ROOT)}/latest.md, latest.json"
        + (f", {os.path.relpath(args.svg, ROOT)}" if args.svg else "") + f" (measuring took {info['duration_s']:.0f} s)")


# ----------------------------------------------------------------------------------------------------------
# Summaries

def summarize(runs: list[dict], detect_runs: list[dict], models: list[str], threads: list[int]):
    """Per (model, threads) and per detector model: medians over rounds and the per-round ratios."""
    summary = []
    for model in models:
        for n in threads:
            mine = [x for x in runs if x["model"] == model and x["threads"] == n]
            o = {x["round"]: x["result"] for x in mine if x["side"] == "ours" and x["result"]}
            l = {x["round"]: x["result"] for x in mine if x["side"] == "litert" and x["result"]}
            ratios = [o[k]["median_ms"] / l[k]["median_ms"] for k in o if k in l]
            target = TARGETS.get(model, DEFAULT_TARGET)
            ratio = median(ratios)
            last = o[max(o)] if o else None
            summary.append({
                "model": model, "threads": n, "rounds": len(ratios),
                "ours_median_ms": median([x["median_ms"] for x in o.values()]),
                "ours_min_ms": min((x["min_ms"] for x in o.values()), default=None),
                "ours_p90_ms": median([x["p90_ms"] for x in o.values()]),
                "litert_median_ms": median([x["median_ms"] for x in l.values()]),
                "litert_min_ms": min((x["min_ms"] for x in l.values()), default=None),
                "litert_p90_ms": median([x["p90_ms"] for x in l.values()]),
                "ratio": ratio, "ratio_min": min(ratios, default=None), "ratio_max": max(ratios, default=None),
                "target": target, "pass": ratio is not None and ratio <= target,
                "ours_load_ms": median([x["load_ms"] for x in o.values()]),
                "litert_load_ms": median([x["load_ms"] for x in l.values()]),
                "ours_gflops": median([x["gflops"] for x in o.values()]),
                "ours_share_of_limit": median([x["share_of_limit"] for x in o.values()]),
                "allocations_per_invoke": max((x["allocations_per_invoke"] for x in o.values()), default=None),
                "arena_bytes": last and last["arena_bytes"], "macs": last and last["macs"],
                "ours_peak_rss_bytes": median([x["peak_rss_bytes"] for x in o.values()]),
                "litert_peak_rss_bytes": median([x["peak_rss_bytes"] for x in l.values()]),
                "ours_iterations": median([x["iterations"] for x in o.values()]),
                "litert_iterations": median([x["iterations"] for x in l.values()]),
            })
    detect_summary = []
    for model in MEDIAPIPE_MODELS:
        o = {d["round"]: d["result"] for d in detect_runs if d["side"] == "ours" and d["model"] == model}
        m = {d["round"]: d["result"] for d in detect_runs if d["side"] == "mediapipe" and d["model"] == model}
        if not o:
            continue
        ratios = [o[k]["median_ms"] / m[k]["median_ms"] for k in o if k in m]
        any_o = next(iter(o.values()))
        detect_summary.append({
            "model": model, "image": any_o["image"], "frame": f"{any_o['frame_width']}x{any_o['frame_height']}",
            "ours_detect_ms": median([x["median_ms"] for x in o.values()]),
            "ours_invoke_ms": median([x["invoke_median_ms"] for x in o.values()]),
            "detect_to_invoke": median([x["detect_to_invoke_ratio"] for x in o.values()]),
            "overhead_ms": median([x["overhead_ms"] for x in o.values()]),
            "allocations_per_detect": max(x["allocations_per_detect"] for x in o.values()),
            "faces": any_o["faces"],
            "mediapipe_detect_ms": median([x["median_ms"] for x in m.values()]),
            "mediapipe_faces": next(iter(m.values()))["faces"] if m else None,
            "ratio_to_mediapipe": median(ratios), "rounds": len(o),
        })

    return summary, detect_summary


# ----------------------------------------------------------------------------------------------------------
# Markdown

def report(summary: list[dict], detect_summary: list[dict], info: dict, args) -> str:
    s = info["settings"]
    m = info["machine"]
    git = info["git"]
    lines = [
        measured_sentence(info) + " "
        f"{s['rounds']} alternating round{'s' if s['rounds'] != 1 else ''}; each run: {s['warmup']} warm-up and {s['iterations']} timed invokes "
        f"(stopping early after {s['time_limit_s']:g} s), in its own process. Peer: {info['litert'] or 'LiteRT'}. "
        f"The script took {info['duration_s'] / 60:.1f} min.",
        "",
        "| model | threads | ours ms | LiteRT ms | ours/LiteRT | range over rounds | fastest invokes | target | |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for x in summary:
        verdict = "n/a" if x["ratio"] is None else ("pass" if x["pass"] else "**fail**")
        fastest = (x["ours_min_ms"] / x["litert_min_ms"]
                   if x["ours_min_ms"] is not None and x["litert_min_ms"] else None)
        lines.append(f"| {x['model']} | {x['threads']} | {fmt(x['ours_median_ms'], 3)} | {fmt(x['litert_median_ms'], 3)} | "
                     f"**{fmt(x['ratio'])}** | {fmt(x['ratio_min'])}–{fmt(x['ratio_max'])} | {fmt(fastest)} | "
                     f"≤ {x['target']:.2f} | {verdict} |")
    lines += [
        "",
        "ms: median over rounds of each run's median time per invoke. ours/LiteRT: median over rounds of the "
        "per-round ratio (the verdict). Fastest invokes: our fastest invoke over all rounds / LiteRT's, what each "
        "engine does when the machine leaves it alone (a check on the verdict, not the target). "
        f"Targets: {targets_text('every other model')}.",
        "",
        "Our engine per model, one thread (medians over rounds; GFLOP/s = 2 × MACs / median, against an assumed "
        "~90 GFLOP/s per core; allocations counted on every thread over all timed invokes; peak RSS is the "
        "process's high-water mark, reset before loading, so it includes the Swift or Python runtime):",
        "",
        "| model | MMACs | GFLOP/s | % of 90 | allocations / invoke | arena KiB | load ms (ours / LiteRT) | peak RSS MiB (ours / LiteRT) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for x in summary:
        if x["threads"] != min(info["settings"]["threads"]):
            continue
        rss = lambda b: fmt(b / 1048576 if b is not None else None, 1)
        lines.append(
            f"| {x['model']} | {fmt(x['macs'] / 1e6 if x['macs'] else None, 1)} | {fmt(x['ours_gflops'], 1)} | "
            f"{fmt(x['ours_share_of_limit'] * 100 if x['ours_share_of_limit'] is not None else None, 1)} | "
            f"{fmt(x['allocations_per_invoke'], 0)} | {fmt(x['arena_bytes'] / 1024 if x['arena_bytes'] else None, 0)} | "
            f"{fmt(x['ours_load_ms'], 1)} / {fmt(x['litert_load_ms'], 1)} | "
            f"{rss(x['ours_peak_rss_bytes'])} / {rss(x['litert_peak_rss_bytes'])} |")
    if detect_summary:
        d0 = detect_summary[0]
        lines += [
            "",
            f"The whole detector, one thread: `FaceDetector.detect(_:into:)` on {d0['image']} (rgb8), against a bare "
            "`invoke()` of the same model in alternating blocks of 10 in the same process"
            + (", and MediaPipe Tasks' FaceDetector (mediapipe 1.2.2, IMAGE mode, process pinned to one CPU) on the "
               "same frame in alternating processes:" if s["mediapipe"] else ":"),
            "",
            "| model | detect ms | bare invoke ms | detect / invoke | overhead ms | allocations / detect | faces |"
            + (" MediaPipe ms | ours / MediaPipe |" if s["mediapipe"] else ""),
            "|---|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if s["mediapipe"] else ""),
        ]
        for d in detect_summary:
            row = (f"| {d['model']} | {fmt(d['ours_detect_ms'], 3)} | {fmt(d['ours_invoke_ms'], 3)} | "
                   f"{fmt(d['detect_to_invoke'])} | {fmt(d['overhead_ms'], 3)} | {fmt(d['allocations_per_detect'], 0)} | "
                   f"{d['faces']}{'' if d['mediapipe_faces'] in (None, d['faces']) else ' (MediaPipe: %d)' % d['mediapipe_faces']} |")
            if s["mediapipe"]:
                row += f" {fmt(d['mediapipe_detect_ms'], 3)} | **{fmt(d['ratio_to_mediapipe'])}** |"
            lines.append(row)
        lines += ["", "Every column is a median over rounds; detect / invoke and overhead are medians of the per-round "
                      "values (each measured within one process), ours / MediaPipe the median of the per-round ratios. "
                      "The bare invoke's input has no repeated rows; the detector's letterboxed frame has 28 identical "
                      "rows above and below the picture (short-range), computed once per band, hence an overhead "
                      "below zero."]
    lines += ["", "Reproduce: `Benchmarks/compare_litert.sh` (raw runs: `Benchmarks/results/latest.json`)."]
    return "\n".join(lines)


def measured_sentence(info: dict) -> str:
    """When, at which commit, on which machine and under which load a run measured."""
    m, git = info["machine"], info["git"]
    return (f"Measured {info['date_utc']} at commit `{git['commit']}`"
            f"{' with uncommitted changes in Sources/' if git['dirty'] else ''} on {m['cpu']} ({m['cpus']} CPUs, "
            f"{m['cpu_flags']}), a shared machine; load average {info['load_average_before'][0]:.2f} before, "
            f"{info['load_average_after'][0]:.2f} after.")


def update_docs(path: str, markdown: str, block: str = "results") -> None:
    """Replaces the text between <!-- BLOCK:begin --> and <!-- BLOCK:end --> in the file at path (if both are there)."""
    begin, end = f"<!-- {block}:begin -->", f"<!-- {block}:end -->"
    with open(path) as f:
        text = f.read()
    if begin not in text or end not in text:
        return
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + markdown + "\n" + end + tail)


# ----------------------------------------------------------------------------------------------------------
# SVG chart: one panel per model (its own scale), bars ours vs LiteRT per thread count.

def chart(summary: list[dict], models: list[str], threads: list[int], info: dict) -> str:
    by = {(x["model"], x["threads"]): x for x in summary}
    panels = []
    for model in models:
        groups = []
        for n in threads:
            x = by.get((model, n), {})
            ratio = x.get("ratio")
            groups.append({
                "label": f'{n} thread{"s" if n > 1 else ""}',
                "values": [x.get("ours_median_ms"), x.get("litert_median_ms")],
                "tooltips": [f'{model}, {n} thread(s), {side}' for side in ("ours", "LiteRT")],
                "ratio": None if ratio is None else f"ratio {ratio:.2f}", "ok": x.get("pass")})
        panels.append({"title": model, "groups": groups})
    s = info["settings"]
    rounds = f'{s["rounds"]} alternating round{"s" if s["rounds"] != 1 else ""}'
    footer = [f'Medians of {rounds} ({s["iterations"]} timed invokes per run, each run in its own process) on a shared, '
              f'noisy {info["machine"]["cpus"]}-CPU {info["machine"]["cpu"]} machine.',
              f'{info["date_utc"]}, commit {info["git"]["commit"]}{" (+ local changes)" if info["git"]["dirty"] else ""}. '
              'Reproduce: Benchmarks/compare_litert.sh; numbers in Benchmarks/results/latest.md.']
    return bar_panels_svg(f'swift-blazeface vs {info["litert"] or "LiteRT"}: milliseconds per invoke, lower is better',
                          [("swift-blazeface", OURS_COLOR), ("LiteRT", PEER_COLOR)],
                          f"ratio = ours / LiteRT (target: {targets_text()})", panels, footer)


OURS_COLOR, PEER_COLOR = "#d9480f", "#868e96"


def bar_panels_svg(title: str, series: list[tuple[str, str]], note: str, panels: list[dict], footer: list[str],
                   cols: int = 3, panel_width: int = 300) -> str:
    """A page of bar-chart panels, each on its own scale. series: (name, colour) per bar of a group. Each panel:
    {"title", "groups": [{"label", "values" (one per series, None for a missing one), "tooltips" (one per series),
    "ratio" (text under the group or None), "ok" (colours the ratio green or red)}]}. footer: lines of small text (two fit)."""
    cols = min(cols, max(1, len(panels)))
    rows = (len(panels) + cols - 1) // cols
    pw, ph = panel_width, 230   # panel size
    left, top = 20, 70          # page margins
    width = left * 2 + cols * pw
    height = top + rows * ph + 50
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           'font-family="Helvetica, Arial, sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="{left}" y="26" font-size="17" font-weight="bold">{escape(title)}</text>']
    legend = ""
    for i, (name, color) in enumerate(series):
        legend += (f'<rect x="{left + 130 * i}" y="40" width="12" height="12" fill="{color}"/>'
                   f'<text x="{left + 130 * i + 18}" y="50">{escape(name)}</text>')
    last = left + 130 * (len(series) - 1)
    legend += (f'<text x="{last + max(80, 30 + 7 * len(series[-1][0]))}" y="50" fill="#495057">'
               f'{escape(note)}</text>')
    out.append(legend)
    for i, panel in enumerate(panels):
        px = left + (i % cols) * pw
        py = top + (i // cols) * ph
        # plot area within the panel
        ax, ay, aw, ah = px + 45, py + 28, pw - 60, ph - 85
        values = [v for g in panel["groups"] for v in g["values"] if v]
        vmax = nice_max(max(values) if values else 1)
        out.append(f'<text x="{px + pw / 2}" y="{py + 16}" text-anchor="middle" font-size="14" font-weight="bold">'
                   f'{escape(panel["title"])}</text>')
        for k in range(5):
            v = vmax * k / 4
            y = ay + ah - ah * k / 4
            out.append(f'<line x1="{ax}" y1="{y:.1f}" x2="{ax + aw}" y2="{y:.1f}" stroke="#e9ecef"/>')
            out.append(f'<text x="{ax - 5}" y="{y + 4:.1f}" text-anchor="end" fill="#495057" font-size="10">{v:g}</text>')
        out.append(f'<line x1="{ax}" y1="{ay + ah}" x2="{ax + aw}" y2="{ay + ah}" stroke="#495057"/>')
        group = aw / len(panel["groups"])
        bw = min(34, group / (len(series) + 1))
        for j, g in enumerate(panel["groups"]):
            gx = ax + j * group + group / 2
            first = gx - (len(series) * bw + (len(series) - 1) * 4) / 2
            for b, ((_, color), v, tip) in enumerate(zip(series, g["values"], g["tooltips"])):
                bx = first + b * (bw + 4)
                if v is None:
                    out.append(f'<text x="{bx + bw / 2:.1f}" y="{ay + ah - 4}" text-anchor="middle" font-size="10">n/a</text>')
                    continue
                hgt = ah * min(v, vmax) / vmax
                out.append(f'<rect x="{bx:.1f}" y="{ay + ah - hgt:.1f}" width="{bw:.1f}" height="{hgt:.1f}" fill="{color}">'
                           f'<title>{escape(tip)}: {v:.3f} ms</title></rect>')
                out.append(f'<text x="{bx + bw / 2:.1f}" y="{ay + ah - hgt - 3:.1f}" text-anchor="middle" font-size="10">'
                           f'{v:.2f}</text>')
            out.append(f'<text x="{gx:.1f}" y="{ay + ah + 15}" text-anchor="middle">{escape(g["label"])}</text>')
            if g.get("ratio") is not None:
                out.append(f'<text x="{gx:.1f}" y="{ay + ah + 31}" text-anchor="middle" font-weight="bold" '
                           f'fill="{"#2b8a3e" if g.get("ok") else "#c92a2a"}">{escape(g["ratio"])}</text>')
    for k, line in enumerate(footer):
        out.append(f'<text x="{left}" y="{height - 10 - 16 * (len(footer) - 1 - k)}" fill="#495057" font-size="11">'
                   f'{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def nice_max(v: float) -> float:
    """The smallest of 1, 2, 2.5, 4, 5, 8 × 10^k at or above v × 1.12."""
    import math
    v = max(v * 1.12, 1e-3)
    e = 10 ** math.floor(math.log10(v))
    for m in (1, 2, 2.5, 4, 5, 8, 10):
        if m * e >= v:
            return m * e
    return 10 * e


if __name__ == "__main__":
    main()
