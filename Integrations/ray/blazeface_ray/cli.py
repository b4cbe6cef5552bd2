"""`python -m blazeface_ray scan --input DIR_OR_GLOB --output OUT.parquet [...]`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional

from .coprocess import TASKS, BlazefaceError
from .inputs import find_binary, find_models_dir, list_inputs


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m blazeface_ray",
                                     description="Run blazeface over many pictures with Ray Data.")
    commands = parser.add_subparsers(dest="command", required=True)
    scan = commands.add_parser(
        "scan", help="detect or analyze the faces of every picture, one Parquet row per picture",
        description="One row per input (path, width, height, face_count, faces as JSON text, error), written "
                    "as a Parquet folder. Extra blazeface options go after --, e.g. -- --model short-range.")
    scan.add_argument("--input", action="append", required=True, metavar="DIR_OR_GLOB",
                      help="a folder (walked), a file or a glob (** allowed); repeatable")
    scan.add_argument("--output", required=True, metavar="OUT.parquet",
                      help="Parquet folder to write (on storage every node sees, for a real cluster)")
    scan.add_argument("--task", choices=TASKS, default="detect")
    scan.add_argument("--address", default=None,
                      help="auto (the cluster this machine is part of), HOST:6379 (the head's GCS), or none for "
                           "a local Ray; ray://HOST:10001 needs ray[client], not in the pins")
    scan.add_argument("--binary", default=None, help="blazeface executable (default: blazeface on PATH)")
    scan.add_argument("--models-dir", default=None, help="models folder on the nodes (default: $BLAZEFACE_MODELS, "
                                                         "a Models folder beside the binary, or ./Models)")
    scan.add_argument("--concurrency", type=int, default=1, help="actors, each with one co-process (default 1)")
    scan.add_argument("--threads", type=int, default=2, help="--threads of each co-process; the actor asks Ray "
                                                             "for as many CPUs (default 2)")
    scan.add_argument("--batch-size", type=int, default=32, help="paths per batch (default 32)")
    scan.add_argument("--timeout", type=float, default=300.0,
                      help="seconds without an answer after which a co-process is taken for hung (default 300)")
    scan.add_argument("--ext", default=None, help="only these extensions, e.g. jpg,jpeg,png (default: every file)")
    scan.add_argument("--include-hidden", action="store_true", help="also list names starting with a dot")
    scan.add_argument("--overwrite", action="store_true", help="replace the output when it exists")
    scan.add_argument("extra", nargs="*", metavar="-- BLAZEFACE_OPTION",
                      help="options passed to the blazeface task (after --)")

    videos = commands.add_parser(
        "scan-videos", help="follow the faces of every video (blazeface track), one Parquet row per video",
        description="One task per video: blazeface track --json-lines, its per-frame lines in a file per video "
                    "under --frames-dir, one row per video (path, frames, seconds, ids, tracks as JSON: each ID's "
                    "first and last time, frames and seconds on screen, frames_file, summary, error). Extra "
                    "track options go after --, e.g. -- --every 2 --attributes.")
    videos.add_argument("--input", action="append", required=True, metavar="DIR_OR_GLOB")
    videos.add_argument("--output", required=True, metavar="OUT.parquet")
    videos.add_argument("--frames-dir", required=True, help="folder for the per-frame JSON lines (shared storage)")
    videos.add_argument("--address", default=None)
    videos.add_argument("--binary", default=None)
    videos.add_argument("--models-dir", default=None)
    videos.add_argument("--concurrency", type=int, default=1, help="videos at once (default 1)")
    videos.add_argument("--threads", type=int, default=1, help="--threads of each track run, and its CPUs")
    videos.add_argument("--timeout", type=float, default=3600.0, help="seconds per video (default 3600)")
    videos.add_argument("--ext", default="mp4,mov,m4v,mkv,avi,webm",
                        help="extensions to list (default mp4,mov,m4v,mkv,avi,webm; 'all' for every file)")
    videos.add_argument("--include-hidden", action="store_true")
    videos.add_argument("--overwrite", action="store_true")
    videos.add_argument("extra", nargs="*", metavar="-- TRACK_OPTION")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    arguments = _parser().parse_args(argv)
    try:
        if arguments.concurrency < 1 or arguments.threads < 1 or getattr(arguments, "batch_size", 1) < 1:
            raise BlazefaceError("--concurrency, --threads and --batch-size must be at least 1")
        binary = find_binary(arguments.binary)
        models_dir = find_models_dir(arguments.models_dir, binary)
        extensions = arguments.ext.split(",") if arguments.ext and arguments.ext != "all" else None
        paths = list_inputs(arguments.input, extensions, arguments.include_hidden)
        from .scan import ScanOptions, run_scan, run_scan_videos   # Ray is imported once the arguments are good

        if arguments.command == "scan-videos":
            options = ScanOptions(binary=binary, threads=arguments.threads, concurrency=arguments.concurrency,
                                  models_dir=models_dir)
            summary = run_scan_videos(paths, arguments.output, arguments.frames_dir, options,
                                      address=arguments.address, overwrite=arguments.overwrite,
                                      timeout=arguments.timeout, track_args=arguments.extra)
        else:
            options = ScanOptions(binary=binary, task=arguments.task, threads=arguments.threads,
                                  concurrency=arguments.concurrency, batch_size=arguments.batch_size,
                                  models_dir=models_dir, extra_args=arguments.extra, timeout=arguments.timeout)
            options.command()   # rejects reserved extra options before anything starts
            summary = run_scan(paths, arguments.output, options, address=arguments.address,
                               overwrite=arguments.overwrite)
    except (BlazefaceError, ValueError) as error:
        print(f"blazeface_ray: error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(summary))
    return 0
