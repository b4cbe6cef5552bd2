#!/usr/bin/env python3
"""The "Still pictures" table of Documentation/FaceDetector.md: faces found and false finds of each detector on the
sample pictures and on Benchmarks/make_hard_pictures.py's close-ups, masked faces and old photographs, upright
(plain detection) and in all four turns (--try-rotations), with the time per picture.

  python3 Benchmarks/make_hard_pictures.py --out out/hard-pictures       # needs Pillow and numpy
  python3 Benchmarks/still_pictures.py --blazeface .build/release/blazeface --hard out/hard-pictures

Standard library only. A picture's true count is the number of people whose face shows (the group photos' counts
are in FaceDetector.md's "Which model"; every other sample shows one face, or none for chelsea, coffee and rocket).
A detector's finds in a picture beyond its true count are false finds; fewer are misses. Faces are counted, not
matched box by box, which the table's pictures make safe: each has one face or faces far apart.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import time

TRUTH = {"multi_face": 5, "t1": 6, "breakingbad": 2, "chelsea": 0, "coffee": 0, "rocket": 0}
DETECTORS = ["photo", "full-range", "short-range", "full-range-sparse"]


def truth(stem: str) -> int:
    for turn in ("-r90", "-r180", "-r270"):
        stem = stem.removesuffix(turn)
    return TRUTH.get(stem.removeprefix("old-"), 1)


def run(blazeface: str, detector: str, paths: list[str], rotations: bool, models: str) -> tuple[dict, float]:
    command = [blazeface, "detect", "--json", "--threads", "1", "--model", detector, "--models-dir", models]
    command += (["--try-rotations"] if rotations else []) + paths
    start = time.perf_counter()
    output = subprocess.run(command, check=False, capture_output=True, text=True).stdout
    seconds = time.perf_counter() - start
    counts = {}
    for image in json.loads(output)["images"]:
        counts[os.path.splitext(os.path.basename(image["path"]))[0]] = len(image.get("faces", []))
    return counts, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blazeface", default=".build/release/blazeface")
    parser.add_argument("--hard", default="out/hard-pictures")
    parser.add_argument("--models", default="Models")
    args = parser.parse_args()
    samples = sorted(os.path.join(args.models, "samples", f) for f in os.listdir(os.path.join(args.models, "samples")))
    hard = sorted(os.path.join(args.hard, f) for f in os.listdir(args.hard) if f.endswith(".png"))
    upright = samples + [p for p in hard if "-r" not in os.path.basename(p)]
    sets = {"upright, plain detection": (upright, False), "hard pictures in 4 turns, --try-rotations": (hard, True)}
    for title, (paths, rotations) in sets.items():
        results = {d: run(args.blazeface, d, paths, rotations, args.models) for d in DETECTORS}
        stems = sorted(results[DETECTORS[0]][0])
        groups: dict[str, list[str]] = {}
        for stem in stems:
            base = stem.split("-r")[0] if rotations else stem
            kind = base.split("-")[0] if base.split("-")[0] in ("closeup", "masked", "old") else "samples"
            groups.setdefault(kind, []).append(stem)
        print(f"\n{title} ({len(stems)} pictures, {sum(truth(s) for s in stems)} faces)\n")
        print("| pictures | faces | " + " | ".join(DETECTORS) + " |")
        print("|---|---|" + "---|" * len(DETECTORS))
        for kind in ["samples", "closeup", "masked", "old"]:
            if kind not in groups:
                continue
            row = [kind, str(sum(truth(s) for s in groups[kind]))]
            for d in DETECTORS:
                counts = results[d][0]
                found = sum(min(counts[s], truth(s)) for s in groups[kind])
                false = sum(max(0, counts[s] - truth(s)) for s in groups[kind])
                row.append(f"{found}" + (f" (+{false} false)" if false else ""))
            print("| " + " | ".join(row) + " |")
        print("| ms per picture (one thread, decode included) | | " + " | ".join(
            f"{1000 * results[d][1] / len(stems):.0f}" for d in DETECTORS) + " |")


if __name__ == "__main__":
    main()
