#!/usr/bin/env python3
"""Side-by-side speed of any .tflite models: our interpreter (blazeface-bench --model FILE) against LiteRT with
its default XNNPACK delegate (Benchmarks/litert_bench.py), one process each, alternating.

    python Benchmarks/compare_zoo.py --zoo DIR [--models a,b] [--threads 1,2] [--rounds 3] \\
        [--bench .build/release/blazeface-bench] [--litert-python PYTHON] [--out FILE.json]

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
    args = ap.parse_args()

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

    lines = ["| model | threads | ours (ms) | LiteRT (ms) | ours / LiteRT | range |", "|---|---:|---:|---:|---:|---|"]
    table = []
    for name in names:
        if name in refused:
            lines.append(f"| {name} | | | | refused | {refused[name]} |")
            continue
        for n in threads:
            rs = [x for x in runs if x["model"] == name and x["threads"] == n]
            if not rs:
                continue
            ours = statistics.median(x["ours"] for x in rs)
            litert = statistics.median(x["litert"] for x in rs)
            ratios = [x["ours"] / x["litert"] for x in rs]
            ratio = statistics.median(ratios)
            table.append({"model": name, "threads": n, "ours_ms": ours, "litert_ms": litert, "ratio": ratio,
                          "ratio_min": min(ratios), "ratio_max": max(ratios), "rounds": len(rs)})
            lines.append(f"| {name} | {n} | {ours:.3f} | {litert:.3f} | {ratio:.2f} | {min(ratios):.2f}–{max(ratios):.2f} |")
    print("\n".join(lines))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"rows": table, "refused": refused, "runs": runs,
                       "settings": {k: v for k, v in vars(args).items() if k not in ("bench", "litert_python", "zoo", "out")}},
                      f, indent=1)


if __name__ == "__main__":
    main()
