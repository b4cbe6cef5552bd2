#!/usr/bin/env python3
"""The chart of Documentation/Benchmarks.md's server section: requests per second of `blazeface serve` and of
MediaPipe behind FastAPI, per endpoint and client count, from Benchmarks/results/latest-serve.json (written by
Benchmarks/serve_load.py). Run from anywhere: `python3 Benchmarks/serve_chart.py` (standard library only);
writes Documentation/benchmarks-serve.svg."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import OURS_COLOR, PEER_COLOR, ROOT, bar_panels_svg  # noqa: E402


def main() -> None:
    results = json.load(open(os.path.join(ROOT, "Benchmarks", "results", "latest-serve.json")))["comparison"]
    panels = []
    for endpoint in ("detect", "analyze"):
        groups = []
        for row in (r for r in results["rows"] if r["endpoint"] == endpoint):
            ours, anchor = row["ours"]["rps"], row["anchor"]["rps"]
            groups.append({"label": f'{row["concurrency"]} client{"s" if row["concurrency"] > 1 else ""}',
                           "values": [ours, anchor], "tooltips": ["blazeface serve", "MediaPipe + FastAPI"],
                           "ratio": f"{ours / anchor:.2f}x", "ok": ours / anchor >= 3})
        panels.append({"title": f"POST /v1/{endpoint}", "groups": groups})
    settings = results["settings"]
    footer = [f'{settings.get("rounds", "?")} rounds, 2 workers each side, on 2 cores shared with the load generator; '
              "ratio = ours / anchor (goal: 3x, in green when met).",
              "Reproduce: Benchmarks/compare_serve.sh; numbers in Benchmarks/results/latest-serve.md."]
    svg = bar_panels_svg("blazeface serve vs MediaPipe + FastAPI/uvicorn: requests per second, higher is better",
                         [("blazeface serve", OURS_COLOR), ("MediaPipe + FastAPI", PEER_COLOR)],
                         "bars: median over rounds", panels, footer, cols=2, panel_width=420)
    path = os.path.join(ROOT, "Documentation", "benchmarks-serve.svg")
    open(path, "w").write(svg.replace(" ms</title>", " req/s</title>"))
    print(path)


if __name__ == "__main__":
    main()
