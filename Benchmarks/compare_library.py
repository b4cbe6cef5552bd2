#!/usr/bin/env python3
"""Side-by-side photo-library scan: `blazeface-bench --library` against MediaPipe's Python
(Benchmarks/mediapipe_library_bench.py) on the same folders of 12 MP JPEG and HEIC files. Run by
Benchmarks/compare_library.sh. Standard library only.

For every round, format, verb and thread count it runs our bench and MediaPipe's, one process each, one after the
other; which side goes first swaps every time, so that a drift in the machine's load falls on both. One-thread runs
are pinned to one CPU (taskset -c CPU), two-thread runs use both. Each process makes one untimed pass over the
folder and --passes timed ones, and reports the median of files / wall time. Per (format, verb, threads): each
side's images per second is the median over rounds, the ratio ours / MediaPipe the median of the per-round ratios.

Writes the Markdown report to stdout and Benchmarks/results/latest-library.md, every run's raw JSON and the summary
to latest-library.json, the chart to Documentation/benchmarks-library.svg, and the block between
<!-- library:begin --> and <!-- library:end --> of Documentation/Benchmarks.md. --render-only redoes the last three
from the JSON.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import (OURS_COLOR, PEER_COLOR, ROOT, bar_panels_svg, fmt, git_info, log, machine_info,  # noqa: E402
                     measured_sentence, median, run_json, update_docs)

HERE = os.path.join(ROOT, "Benchmarks")
RESULTS = os.path.join(HERE, "results")
FORMAT_TITLES = {"jpeg": "12 MP JPEG", "heic": "12 MP HEIC"}
# ours / MediaPipe, images per second (issue 25): detect 4x on JPEG and 2x on HEIC; analyze 2x.
GOALS = {("detect", "jpeg"): 4.0, ("detect", "heic"): 2.0, ("analyze", "jpeg"): 2.0, ("analyze", "heic"): 2.0}
BUSY = ("swift-frontend", "swift-build", "swiftc", "clang", "cc1", "ld", "swift-test", "swift-package")


def busy_processes() -> list[str]:
    """The compilers and builds running now (another developer's build shares the cores). A zombie, or a process
    that has used no CPU time at all (a compiler left hanging by an interrupted build), does not count."""
    seen = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/comm") as f:
                    name = f.read().strip()
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            state, cpu_ticks = fields[0], int(fields[11]) + int(fields[12])  # state, utime + stime
            if name.startswith(BUSY) and state != "Z" and cpu_ticks > 0:
                seen.append(name)
    return sorted(seen)


def load() -> float:
    return os.getloadavg()[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench", default=os.path.join(ROOT, ".build", "release", "blazeface-bench"))
    ap.add_argument("--python", help="the python of a venv with mediapipe 1.x and pillow-heif (detect)")
    ap.add_argument("--python-legacy", help="the python of a venv with mediapipe 0.10.21 and pillow-heif (analyze)")
    ap.add_argument("--library", default=os.path.join(ROOT, "out", "library"), help="the folder with jpeg/ and heic/")
    ap.add_argument("--models-dir", default=os.path.join(ROOT, "Models"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--formats", default="jpeg,heic")
    ap.add_argument("--verbs", default="detect,analyze")
    ap.add_argument("--decodes", default="full", help="our ways of decoding, each a run of ours in every round: full, "
                    "shrink (--library-decode shrink, JPEG detect only) or shrink:N (with --library-shrink-long-side N)")
    ap.add_argument("--cpu", type=int, default=0, help="the CPU one-thread runs are pinned to (-1: none)")
    ap.add_argument("--docs", default=os.path.join(ROOT, "Documentation", "Benchmarks.md"))
    ap.add_argument("--svg", default=os.path.join(ROOT, "Documentation", "benchmarks-library.svg"))
    ap.add_argument("--results-name", default="latest-library",
                    help="the results files in Benchmarks/results: NAME.md and NAME.json")
    ap.add_argument("--render-only", action="store_true")
    args = ap.parse_args()
    if args.render_only:
        data = json.load(open(os.path.join(RESULTS, args.results_name + ".json")))
        return write_outputs(args, data["info"], data["runs"])

    threads = [int(t) for t in args.threads.split(",")]
    formats, verbs = args.formats.split(","), args.verbs.split(",")
    manifest_path = os.path.join(args.library, "manifest.json")
    info = {"date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": machine_info(), "git": git_info(), "load_average_before": os.getloadavg(),
            "manifest": {k: v for k, v in json.load(open(manifest_path)).items() if k != "files"}
            if os.path.exists(manifest_path) else None,
            "settings": {"rounds": args.rounds, "passes": args.passes, "threads": threads, "formats": formats,
                         "verbs": verbs, "decodes": args.decodes.split(","), "results_name": args.results_name,
                         "cpu": args.cpu}}
    started = time.time()
    runs = []
    turn = 0
    for r in range(args.rounds):
        for form in formats:
            folder = os.path.join(args.library, form)
            for verb in verbs:
                for n in threads:
                    pin = ["taskset", "-c", str(args.cpu)] if n == 1 and args.cpu >= 0 else []
                    order = []
                    for decode in args.decodes.split(","):
                        way, _, long_side = decode.partition(":")
                        if way == "shrink" and (verb, form) != ("detect", "jpeg"):
                            continue  # the placeholder shrinks JPEGs for detect only
                        order.append(("ours" if decode == "full" else f"ours-{decode}", pin + [
                            args.bench, "--library", folder, "--library-verbs", verb, "--library-threads", str(n),
                            "--library-passes", str(args.passes), "--library-decode", way, "--json",
                            "--models-dir", args.models_dir] + (["--library-shrink-long-side", long_side] if long_side else [])))
                    python = args.python_legacy if verb == "analyze" else args.python
                    order.append(("mediapipe", pin + [
                        python, os.path.join(HERE, "mediapipe_library_bench.py"), "--library", folder, "--verb", verb,
                        "--workers", str(n), "--passes", str(args.passes), "--models-dir", args.models_dir]))
                    order = order[turn % len(order):] + order[:turn % len(order)]
                    turn += 1
                    for side, cmd in order:
                        log(f"round {r + 1}/{args.rounds}: {form} {verb} {n} thread(s), {side} ...")
                        before, busy = load(), busy_processes()
                        t0 = time.time()
                        out = run_json(cmd)
                        entry = {"round": r, "side": side, "format": form, "verb": verb, "threads": n,
                                 "load_before": round(before, 2), "load_after": round(load(), 2),
                                 "busy_processes": busy, "seconds": round(time.time() - t0, 1),
                                 "result": out["library"]["results"][0] if out else None,
                                 "files": out["library"]["files"] if out else None,
                                 "total_bytes": out["library"]["total_bytes"] if out else None}
                        if out and side.startswith("ours"):
                            entry["decode"] = out["library"]["decode_configuration"]
                        runs.append(entry)
                        if out:
                            x = entry["result"]
                            log(f"  {x['images_per_second']} images/s, {x['cpu_ms_per_image']} CPU ms/image, "
                                f"{x['faces']} faces")
    info["load_average_after"] = os.getloadavg()
    info["minutes"] = round((time.time() - started) / 60, 1)
    write_outputs(args, info, runs)


def summarize(runs: list[dict]) -> list[dict]:
    """One row per (format, verb, threads) and way of ours (full decode, shrink): ours against MediaPipe."""
    keys = []
    for x in runs:
        if x["side"] != "mediapipe" and (x["format"], x["verb"], x["threads"], x["side"]) not in keys:
            keys.append((x["format"], x["verb"], x["threads"], x["side"]))
    order = {"jpeg": 0, "heic": 1, "detect": 0, "analyze": 1}
    keys.sort(key=lambda k: (order.get(k[0], 9), order.get(k[1], 9), k[2], k[3] != "ours", k[3]))
    rows = []
    for form, verb, n, ours in keys:
        cell = [x for x in runs if (x["format"], x["verb"], x["threads"]) == (form, verb, n) and x["result"]]
        side = {"ours": [x for x in cell if x["side"] == ours], "mediapipe": [x for x in cell if x["side"] == "mediapipe"]}
        by_round = {}
        for s in ("ours", "mediapipe"):
            for x in side[s]:
                by_round.setdefault(x["round"], {})[s] = x
        ratios = [p["ours"]["result"]["images_per_second"] / p["mediapipe"]["result"]["images_per_second"]
                  for p in by_round.values() if "ours" in p and "mediapipe" in p]
        goal = GOALS.get((verb, form))
        ratio = median(ratios)

        def stat(s, field):
            return median([x["result"][field] for x in side[s]])

        def first(s, field):
            return side[s][0]["result"][field] if side[s] else None

        rows.append({
            "format": form, "verb": verb, "threads": n, "decode": "full" if ours == "ours" else ours[len("ours-"):],
            "ours_images_per_second": stat("ours", "images_per_second"),
            "mediapipe_images_per_second": stat("mediapipe", "images_per_second"),
            "ours_cpu_ms_per_image": stat("ours", "cpu_ms_per_image"),
            "mediapipe_cpu_ms_per_image": stat("mediapipe", "cpu_ms_per_image"),
            "ours_faces": first("ours", "faces"), "mediapipe_faces": first("mediapipe", "faces"),
            "ours_images_with_faces": first("ours", "images_with_faces"),
            "mediapipe_images_with_faces": first("mediapipe", "images_with_faces"),
            "ratio": ratio, "ratio_min": min(ratios) if ratios else None, "ratio_max": max(ratios) if ratios else None,
            "rounds": len(ratios), "goal": goal,
            "pass": None if ratio is None or goal is None else ratio >= goal,
            "busy_runs": sum(1 for x in side["ours"] + side["mediapipe"] if x["busy_processes"]),
            "runs": len(side["ours"]) + len(side["mediapipe"]),
        })
    return rows


def report(summary: list[dict], info: dict, runs: list[dict]) -> str:
    s, m = info["settings"], info.get("manifest") or {}
    files = next((x["files"] for x in runs if x["files"]), None)
    sizes = {f: next((x["total_bytes"] for x in runs if x["format"] == f and x["total_bytes"]), None) for f in s["formats"]}
    busy = sum(1 for x in runs if x["busy_processes"])
    full = next((x["decode"] for x in runs if x["side"] == "ours" and x.get("decode")), "the full decode")
    shrinks = sorted({x["side"][len("ours-"):] for x in runs if x["side"].startswith("ours-")})
    peers = {}
    for x in runs:
        if x["side"] == "mediapipe" and x["result"]:
            peers.setdefault(x["verb"], x["result"]["configuration"])
    lines = [
        measured_sentence(info) + f" {s['rounds']} rounds; in each, per format, verb and thread count, our process and "
        f"MediaPipe's one after the other (the first side alternating), each making one untimed and {s['passes']} timed "
        f"passes over the folder. One-thread runs pinned to CPU {s['cpu']} (`taskset`), two-thread runs on both CPUs. "
        f"{busy} of {len(runs)} runs started while a compiler or build of another developer was running "
        f"(load average per run in the JSON). The script took {info.get('minutes', '?')} min.",
        "",
        f"Files: {files} per format, made by `Benchmarks/make_library.py` from the sample pictures (Lanczos-scaled to "
        f"{m.get('megapixels', 12):g} MP, Gaussian noise σ {m.get('noise_sd', '?')}): JPEG "
        f"({(m.get('jpeg') or {}).get('encoder', '?')}, quality {(m.get('jpeg') or {}).get('quality', '?')}, "
        f"{(sizes.get('jpeg') or 0) / 1e6 / max(files or 1, 1):.2f} MB per file) and HEIC "
        f"({(m.get('heic') or {}).get('encoder', '?')}, quality {(m.get('heic') or {}).get('quality', '?')}, "
        f"{(sizes.get('heic') or 0) / 1e6 / max(files or 1, 1):.2f} MB per file).",
        f"Ours: `blazeface-bench --library`, decode `full`: {full}"
        + (f"; {', '.join(f'`{x}`' for x in shrinks)}: shrink-on-load as `blazeface detect` does it by default, "
           "`ImageDecoder.decodeScaled(contentsOf:minimumLongSide:)` with the detector's `shrinkOnLoadLongSide` (`shrink`: "
           "9 times the input, 1,728 pixels for full-range) or N pixels (`shrink:N`), a JPEG decoded at the smallest of "
           "1/2, 1/4 or 1/8 that keeps them on its longer side (libjpeg's DCT scaling), the faces mapped back (JPEG detect "
           "only; the runs before the library's rule landed call it a placeholder)" if shrinks else "")
        + ". detect: the full-range `FaceDetector`, as `blazeface "
        "detect`; analyze: `FaceAnalyzer` (full-range detector, attention mesh, head pose, eyes, smile, capture quality), "
        "as `blazeface analyze`" + ("; decode: the decode alone, no model" if "decode" in s["verbs"] else "") + ". Threads: pictures in flight, each worker a thread with its own models (the CLI's "
        "`--threads`).",
        "MediaPipe: " + "; ".join(f"{verb}: {text}" for verb, text in peers.items())
        + ". Two threads: two worker processes.",
        "",
        "| format | verb | threads | decode | ours images/s | MediaPipe images/s | ours / MediaPipe | range over rounds "
        "| goal | | CPU ms per image, ours / MediaPipe | faces, ours / MediaPipe |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    for x in summary:
        verdict = "" if x["pass"] is None else ("met" if x["pass"] else "**not met**")
        goal = "–" if x["goal"] is None else f"≥ {x['goal']:.1f}x"
        lines.append(
            f"| {FORMAT_TITLES.get(x['format'], x['format'])} | {x['verb']} | {x['threads']} | {x['decode']} | "
            f"{fmt(x['ours_images_per_second'], 2)} | {fmt(x['mediapipe_images_per_second'], 2)} | "
            f"**{fmt(x['ratio'], 2)}x** | {fmt(x['ratio_min'], 2)}–{fmt(x['ratio_max'], 2)} | "
            f"{goal} | {verdict} | {fmt(x['ours_cpu_ms_per_image'], 1)} / "
            f"{fmt(x['mediapipe_cpu_ms_per_image'], 1)} | {x['ours_faces']} / {x['mediapipe_faces']} |")
    name = s.get("results_name", "latest-library")
    reproduce = ("Reproduce: `Benchmarks/compare_library.sh` (raw runs: `Benchmarks/results/latest-library.json`)."
                 if name == "latest-library" else
                 f"Reproduce: `ROUNDS={s['rounds']} PASSES={s['passes']} THREADS={','.join(map(str, s['threads']))} "
                 f"FORMATS={','.join(s['formats'])} VERBS={','.join(s['verbs'])} DECODES={','.join(s['decodes'])} "
                 f"Benchmarks/compare_library.sh --results-name {name} --docs '' --svg ''` (raw runs: "
                 f"`Benchmarks/results/{name}.json`).")
    lines += ["",
              "images/s: median over rounds of each run's median over its passes of files / wall time (reading and "
              "decoding each file included). ours / MediaPipe: median over rounds of the per-round ratio. CPU ms per "
              "image: user + system time of the process (and MediaPipe's worker processes) per file, median. Faces: "
              "found in one pass over the folder (MediaPipe's analyze finds faces with its short-range detector).",
              "", reproduce]
    return "\n".join(lines)


def chart(summary: list[dict], info: dict) -> str:
    """Panels per verb and format (the full decode), and one for the shrink rows, if any; bars: images/s."""
    panels = []
    for verb in info["settings"]["verbs"]:
        for form in info["settings"]["formats"]:
            for shrink in (False, True):
                rows = [x for x in summary if x["verb"] == verb and x["format"] == form and (x["decode"] != "full") == shrink]
                if not rows:
                    continue
                groups = []
                for x in rows:
                    label = f'{x["threads"]} thread{"s" if x["threads"] > 1 else ""}'
                    if shrink:
                        label = f'{x["threads"]} thr., ≥{x["decode"].partition(":")[2] or "1728"} px'
                    groups.append({"label": label,
                                   "values": [x["ours_images_per_second"], x["mediapipe_images_per_second"]],
                                   "tooltips": [f"swift-blazeface {verb} ({x['decode']})", f"MediaPipe {verb}"],
                                   "ratio": None if x["ratio"] is None else f'{x["ratio"]:.2f}x', "ok": x["pass"]})
                goal = GOALS.get((verb, form))
                title = f"{verb}, {FORMAT_TITLES.get(form, form)}" + (", shrink placeholder" if shrink else "")
                panels.append({"title": title + (f" (goal {goal:g}x)" if goal else ""), "groups": groups})
    s = info["settings"]
    footer = [f'Medians of {s["rounds"]} alternating rounds on a shared {info["machine"]["cpus"]}-CPU '
              f'{info["machine"]["cpu"]}, {info["date_utc"]}, commit {info["git"]["commit"]}; ratio = ours / MediaPipe; '
              "shrink: JPEG decoded at 1/2 to 1/8, keeping that long side.",
              "Reproduce: Benchmarks/compare_library.sh; numbers in Benchmarks/results/latest-library.md."]
    svg = bar_panels_svg("Photo-library scan: images per second, decoding included, higher is better",
                         [("swift-blazeface", OURS_COLOR), ("MediaPipe (Python)", PEER_COLOR)],
                         "green: goal met", panels, footer, cols=3, panel_width=400)
    return svg.replace(" ms</title>", " images/s</title>")


def write_outputs(args, info: dict, runs: list[dict]) -> None:
    summary = summarize(runs)
    markdown = report(summary, info, runs)
    print(markdown)
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, args.results_name + ".json"), "w") as f:
        json.dump({"info": info, "summary": summary, "runs": runs}, f, indent=1)
        f.write("\n")
    with open(os.path.join(RESULTS, args.results_name + ".md"), "w") as f:
        f.write("# Photo-library scan against MediaPipe\n\n" + markdown + "\n")
    if args.svg:
        with open(args.svg, "w") as f:
            f.write(chart(summary, info))
    if args.docs:
        update_docs(args.docs, markdown, block="library")


if __name__ == "__main__":
    main()
