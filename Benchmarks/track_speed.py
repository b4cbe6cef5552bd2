#!/usr/bin/env python3
"""`blazeface track` on a 1280x720 H.264 clip, decode included: wall time, user and system CPU, x real time,
with the decoder on a second thread (--read-ahead 2, the default) and on the tracker's (--read-ahead 0).

  Benchmarks/track_speed.py [--rounds 7] [--video CLIP.mp4] [--blazeface PATH] [--models-dir DIR] [--annotate]

Without --video the clip of Documentation/Video.md is made with the `ffmpeg` tool into the system's temporary
folder (Models/samples/astronaut.png scaled to 1600x1600, a 10 s pan at 30 fps with film noise, x264 `medium`
CRF 23, 300 frames). Build first: swift build -c release --product blazeface. Each round runs every
configuration once, in turn, so that all see the same machine load; the report gives the median over the
rounds and the range. Wall and CPU times are the whole process's (opening the file and loading the models
included); "summary" is the tool's own x real time (from after the models are loaded). With --annotate the
`--annotate OUT.mp4` configurations are added (slow: the encoder dominates).
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CONFIGURATIONS = [
    ("default", []),
    ("--every 3", ["--every", "3"]),
    ("--json-lines --attributes", ["--json-lines", "--attributes"]),
    ("--json-lines --landmarks --attributes", ["--json-lines", "--landmarks", "--attributes"]),
]


def make_clip(path: str) -> None:
    picture = os.path.join(ROOT, "Models", "samples", "astronaut.png")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-i", picture, "-vf",
                    "scale=1600:1600,crop=1280:720:x='t*30':y='100+t*5',noise=alls=6:allf=t",
                    "-t", "10", "-r", "30", "-c:v", "libx264", "-preset", "medium", "-crf", "23",
                    "-pix_fmt", "yuv420p", "-threads", "1", path], check=True)


def run_once(command: list[str]) -> dict:
    """Runs `command` (output discarded); its wall time, user and system CPU, and the summary's x real time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr}")
    summary = re.search(r"([0-9.]+)x real time", done.stdout + done.stderr)
    return {"wall": wall, "user": after.ru_utime - before.ru_utime, "sys": after.ru_stime - before.ru_stime,
            "summary": float(summary.group(1)) if summary else float("nan")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--video")
    parser.add_argument("--blazeface", default=os.path.join(ROOT, ".build", "release", "blazeface"))
    parser.add_argument("--models-dir", default=os.path.join(ROOT, "Models"))
    parser.add_argument("--annotate", action="store_true")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="track-speed-")
    video = args.video
    if video is None:
        video = os.path.join(scratch, "astronaut720.mp4")
        make_clip(video)
    configurations = list(CONFIGURATIONS)
    if args.annotate:
        configurations.append(("--annotate OUT.mp4", ["--annotate", os.path.join(scratch, "annotated.mp4")]))
    runs: dict[tuple[str, int], list[dict]] = {}
    for _ in range(args.rounds):
        for name, extra in configurations:
            for read_ahead in (2, 0):
                command = [args.blazeface, "track", video, "--models-dir", args.models_dir,
                           "--read-ahead", str(read_ahead)] + extra
                runs.setdefault((name, read_ahead), []).append(run_once(command))

    seconds = 10.0  # the clip of Video.md; "x real time (wall)" assumes its length
    print(f"blazeface track on {os.path.basename(video)}, {args.rounds} rounds, median (min-max):")
    print("| run | decoding | wall s | user + sys CPU s | x real time (wall) | x real time (summary) |")
    print("|---|---|---|---|---|---|")
    for name, _ in configurations:
        for read_ahead in (2, 0):
            r = runs[(name, read_ahead)]
            wall = [x["wall"] for x in r]
            cpu = [x["user"] + x["sys"] for x in r]
            summary = [x["summary"] for x in r]
            where = "second thread (--read-ahead 2)" if read_ahead else "tracker's thread (--read-ahead 0)"
            print(f"| `track {name}` | {where} | {statistics.median(wall):.2f} ({min(wall):.2f}-{max(wall):.2f}) "
                  f"| {statistics.median(cpu):.2f} | {seconds / statistics.median(wall):.1f}x "
                  f"| {statistics.median(summary):.1f}x ({min(summary):.1f}-{max(summary):.1f}) |")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
