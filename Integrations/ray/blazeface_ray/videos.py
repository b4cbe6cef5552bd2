"""Videos: one Ray task per video through `blazeface track --files-from - --json-lines --out-dir DIR`, which writes
the per-frame lines in a file per video and prints one summary line (its IDs and their time on screen): the row.

Each task starts one process for its video; the models' load is small next to a video.
"""

from __future__ import annotations

import json
import os
import subprocess
from typing import Optional, Sequence

import pyarrow as pa

#: The columns of a video's row.
VIDEO_SCHEMA = pa.schema([
    ("path", pa.string()),
    ("frames", pa.int64()),          # frames processed (with --every N, one in N)
    ("seconds", pa.float64()),       # the time of the last processed frame plus one frame
    ("ids", pa.int32()),             # distinct face IDs
    ("tracks", pa.string()),         # JSON: [{"id", "first", "last", "frames", "seconds"}], seconds on screen
    ("frames_file", pa.string()),    # the per-frame JSON lines
    ("summary", pa.string()),        # the binary's own summary line (JSON)
    ("error", pa.string()),
])

_RESERVED = ("--json-lines", "--threads", "--models-dir", "--annotate", "--files-from", "--out-dir")


def track_video(video: str, binary: str, frames_dir: str, threads: int = 1, models_dir: Optional[str] = None,
                extra_args: Sequence[str] = (), timeout: float = 3600.0) -> dict:
    """Runs `blazeface track --files-from - --json-lines --out-dir FRAMES_DIR` on one video; its row, from the
    binary's own summary line. A video that cannot be read, or is damaged partway (the frames before the damage
    are kept), has `error`; a video that takes longer than `timeout` s is stopped with an error."""
    for argument in extra_args:
        if argument.split("=", 1)[0] in _RESERVED:
            raise ValueError(f"{argument} is set by the integration itself")
    row = {"path": video, "frames": None, "seconds": None, "ids": None, "tracks": None, "frames_file": None,
           "summary": None, "error": None}
    if "\n" in video or "\r" in video:
        row["error"] = "a path with a line break cannot be passed to blazeface track --files-from"
        return row
    command = [binary, "track", "--files-from", "-", "--json-lines", "--out-dir", frames_dir,
               "--threads", str(threads)]
    if models_dir:
        command += ["--models-dir", models_dir]
    command += list(extra_args)
    try:
        result = subprocess.run(command, input=(video + "\n").encode("utf-8", "surrogateescape"),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        row["error"] = f"blazeface track took longer than {timeout:g} s"
        return row
    except OSError as error:
        row["error"] = f"cannot run blazeface track: {error}"
        return row
    lines = [line for line in result.stdout.decode("utf-8", "replace").splitlines() if line.strip()]
    if result.returncode != 0 or len(lines) != 1:
        stderr = result.stderr.decode("utf-8", "replace").strip()
        row["error"] = stderr[-2000:] or f"blazeface track exited with status {result.returncode}"
        return row
    summary = json.loads(lines[0])
    frames = summary.get("processedFrames", 0)
    tracks = summary.get("ids", [])
    frames_file = summary.get("framesFile")
    if frames_file and frames == 0:   # nothing was read: no empty file is left
        _remove(frames_file)
        frames_file = None
    row.update(frames=frames, seconds=summary.get("seconds", 0.0), ids=len(tracks),
               tracks=json.dumps(tracks, separators=(",", ":")), frames_file=frames_file, summary=lines[0],
               error=summary.get("error"))
    return row


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def track_batch(batch, **options) -> pa.Table:
    """For `Dataset.map_batches` (as tasks): each row's video through `track_video`."""
    paths = batch.column("path").to_pylist() if isinstance(batch, pa.Table) else [str(p) for p in batch["path"]]
    rows = [track_video(path, **options) for path in paths]
    return pa.Table.from_pydict({name: [row[name] for row in rows] for name in VIDEO_SCHEMA.names},
                                schema=VIDEO_SCHEMA)
