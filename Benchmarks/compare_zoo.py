#!/usr/bin/env python3
"""Side-by-side speed of any .tflite models: our interpreter (blazeface-bench --model FILE) against LiteRT with
its default XNNPACK delegate (Benchmarks/litert_bench.py), one process each, alternating.

    python Benchmarks/compare_zoo.py --zoo DIR [--models a,b] [--threads 1,2] [--rounds 3] \\
        [--bench .build/release/blazeface-bench] [--litert-python PYTHON] [--out FILE.json] [--svg FILE.svg]
    python Benchmarks/compare_zoo.py --render-only FILE.json [--svg FILE.svg]

For each round, model and thread count, our run and LiteRT's follow each other; which goes first swaps every
round. Both feed the same input pattern and time invoke() alone. The table gives, per model and thread count,
the median over rounds of each side's median, and the ratio ours/LiteRT as the median over rounds of the
per-round ratio, with its range. A model our engine refuses is listed with the refusal.

DIR is a folder of .tflite files (such as the zoo of Tests/Conformance/Zoo/make_zoo.py); --models names files
without the extension (default: all of them).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run_json(cmd):
    """The last JSON line a command prints, or (None, the first line of its error)."""
    try:
        res = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        return None, "timed out"
    if res.returncode != 0:
        lines = [l for l in res.stderr.strip().splitlines() if l.strip()]
        return None, (lines[-1] if lines else f"exit {res.returncode}")[:300]
    lines = [l for l in res.stdout.strip().splitlines() if l.startswith("{")]
    try:
        return json.loads(lines[-1]), None
    except (IndexError, json.JSONDecodeError):
        return None, "no JSON output"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--zoo", required=True)
    ap.add_argument("--models", default="")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--time-limit", type=float, default=3)
    ap.add_argument("--bench", default=os.path.join(ROOT, ".build", "release", "blazeface-bench"))
    ap.add_argument("--litert-python", default=sys.executable)
    ap.add_argument("--out", default="")
    ap.add_argument("--svg", default="", help="also draw the ratios as a bar chart (SVG) at this path")
    ap.add_argument("--render-only", default="", help="a JSON written by --out: print its table and draw --svg")
    args = ap.parse_args()
    if args.render_only:
        with open(args.render_only) as f:
            saved = json.load(f)
        print(markdown(saved["rows"], saved["refused"]))
        if args.svg:
            write_svg(saved["rows"], args.svg)
        return

    names = [m for m in args.models.split(",") if m] or sorted(
        f[:-7] for f in os.listdir(args.zoo) if f.endswith(".tflite"))
    threads = [int(t) for t in args.threads.split(",")]
    common = ["--iterations", str(args.iterations), "--warmup", str(args.warmup), "--time-limit", str(args.time_limit),
              "--loads", "1"]
    runs, refused = [], {}
    for r in range(args.rounds):
        for name in names:
            path = os.path.join(args.zoo, name + ".tflite")
            for n in threads:
                if name in refused:
                    continue
                sides = [("ours", [args.bench, "--json", "--model", path, "--threads", str(n), *common]),
                         ("litert", [args.litert_python, os.path.join(HERE, "litert_bench.py"), "litert",
                                     "--model", path, "--threads", str(n), *common])]
                if r % 2:
                    sides.reverse()
                result = {}
                for side, cmd in sides:
                    out, error = run_json(cmd)
                    if out and out.get("results"):
                        result[side] = out["results"][0]["median_ms"]
                    elif side == "ours":
                        refused[name] = error
                if "ours" in result and "litert" in result:
                    runs.append({"round": r, "model": name, "threads": n, **result})
                    print(f"round {r + 1} {name} x{n}: ours {result['ours']:.3f} ms, LiteRT {result['litert']:.3f} ms",
                          file=sys.stderr, flush=True)

    table = []
    for name in names:
        for n in threads:
            rs = [x for x in runs if x["model"] == name and x["threads"] == n]
            if not rs or name in refused:
                continue
            ratios = [x["ours"] / x["litert"] for x in rs]
            table.append({"model": name, "threads": n, "ours_ms": statistics.median(x["ours"] for x in rs),
                          "litert_ms": statistics.median(x["litert"] for x in rs), "ratio": statistics.median(ratios),
                          "ratio_min": min(ratios), "ratio_max": max(ratios), "rounds": len(rs)})
    print(markdown(table, refused))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"rows": table, "refused": refused, "runs": runs,
                       "settings": {k: v for k, v in vars(args).items()
                                    if k not in ("bench", "litert_python", "zoo", "out", "svg", "render_only")}},
                      f, indent=1)
    if args.svg:
        write_svg(table, args.svg)


def markdown(rows, refused):
    lines = ["| model | threads | ours (ms) | LiteRT (ms) | ours / LiteRT | range |", "|---|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['model']} | {r['threads']} | {r['ours_ms']:.3f} | {r['litert_ms']:.3f} | {r['ratio']:.2f} | "
                     f"{r['ratio_min']:.2f}–{r['ratio_max']:.2f} |")
    for name, error in refused.items():
        lines.append(f"| {name} | | | | refused | {error} |")
    return "\n".join(lines)


def write_svg(rows, path):
    """Horizontal bars of ours/LiteRT per model, one per thread count, with lines at 0.8 and 1."""
    models = sorted({r["model"] for r in rows}, key=lambda m: [r["model"] for r in rows].index(m))
    threads = sorted({r["threads"] for r in rows})
    colours = ["#3b6fb6", "#e0913a", "#5aa469", "#a05195"]
    bar, gap, left, width = 9, 6, 190, 420
    top = 40
    height = top + len(models) * (len(threads) * bar + gap) + 40
    scale = width / max(2.5, max(r["ratio"] for r in rows) * 1.05)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 40}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="16" font-size="13">ours / LiteRT+XNNPACK, median of per-round ratios (lower is faster)</text>']
    for k, n in enumerate(threads):
        out.append(f'<rect x="{left + 120 * k}" y="24" width="10" height="8" fill="{colours[k % 4]}"/>'
                   f'<text x="{left + 14 + 120 * k}" y="32">{n} thread{"s" if n > 1 else ""}</text>')
    y = top
    for m in models:
        out.append(f'<text x="{left - 6}" y="{y + bar * len(threads) / 2 + 4}" text-anchor="end">{m}</text>')
        for k, n in enumerate(threads):
            r = next((r for r in rows if r["model"] == m and r["threads"] == n), None)
            if r:
                out.append(f'<rect x="{left}" y="{y}" width="{r["ratio"] * scale:.1f}" height="{bar - 1}" '
                           f'fill="{colours[k % 4]}"/><text x="{left + r["ratio"] * scale + 3:.1f}" y="{y + bar - 1}" '
                           f'font-size="9">{r["ratio"]:.2f}</text>')
            y += bar
        y += gap
    for mark in (0.8, 1.0):
        x = left + mark * scale
        out.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{y}" stroke="#555" stroke-dasharray="3,3"/>'
                   f'<text x="{x:.1f}" y="{y + 12}" text-anchor="middle">{mark}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")

if __name__ == "__main__":
    main()
