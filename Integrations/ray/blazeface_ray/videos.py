"""Videos: one Ray task per video through `blazeface track VIDEO --json-lines`, the per-frame lines kept in a file
per video, one summary row per video (its IDs and their time on screen).

`track` reads one video per run, so each task starts one process; the models' load is small next to a video.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
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
    ("summary", pa.string()),        # the binary's own summary (its stderr with --json-lines)
    ("error", pa.string()),
])

_RESERVED = ("--json-lines", "--threads", "--models-dir", "--annotate")


def frames_file_for(frames_dir: str, video: str) -> str:
    """The per-frame file of a video: its name and a hash of its whole path (two videos never share one)."""
    digest = hashlib.sha1(video.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    stem = os.path.splitext(os.path.basename(video))[0][:80] or "video"
    return os.path.join(frames_dir, f"{stem}.{digest}.jsonl")


def summarize_frames(lines: Sequence[dict]) -> dict:
    """Frames, duration and, per face ID, its first and last time, frames and seconds on screen (each frame counts
    until the next processed one; the last one for the median interval)."""
    times = [float(line.get("time", 0)) for line in lines]
    gaps = [later - earlier for earlier, later in zip(times, times[1:]) if later > earlier]
    step = statistics.median(gaps) if gaps else 0.0
    durations = [(times[index + 1] - times[index]) if index + 1 < len(times) else step for index in range(len(times))]
    tracks = {}
    for line, time, duration in zip(lines, times, durations):
        for face in line.get("faces", []):
            track = tracks.setdefault(face["id"], {"id": face["id"], "first": time, "last": time, "frames": 0,
                                                   "seconds": 0.0})
            track["last"] = time
            track["frames"] += 1
            track["seconds"] += duration
    for track in tracks.values():
        track["seconds"] = round(track["seconds"], 3)
    return {"frames": len(lines), "seconds": round(times[-1] + step, 3) if times else 0.0,
            "tracks": sorted(tracks.values(), key=lambda track: track["id"])}


def track_video(video: str, binary: str, frames_dir: str, threads: int = 1, models_dir: Optional[str] = None,
                extra_args: Sequence[str] = (), timeout: float = 3600.0) -> dict:
    """Runs `blazeface track` on one video; its row. A video that cannot be read, or is damaged partway (the frames
    before the damage are kept), has `error`; a video that takes longer than `timeout` s is stopped with an error."""
    for argument in extra_args:
        if argument.split("=", 1)[0] in _RESERVED:
            raise ValueError(f"{argument} is set by the integration itself")
    command = [binary, "track", "--json-lines", "--threads", str(threads)]
    if models_dir:
        command += ["--models-dir", models_dir]
    command += list(extra_args) + ["--", video]
    target = frames_file_for(frames_dir, video)
    partial = f"{target}.{os.getpid()}.part"
    row = {"path": video, "frames": None, "seconds": None, "ids": None, "tracks": None, "frames_file": None,
           "summary": None, "error": None}
    try:
        with open(partial, "wb") as out:
            result = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE,
                                    timeout=timeout)
        stderr = result.stderr.decode("utf-8", "replace").strip()
        with open(partial, "rb") as frames:
            lines = [json.loads(line) for line in frames if line.strip()]
        os.replace(partial, target)   # a retried task replaces the file whole
    except subprocess.TimeoutExpired:
        row["error"] = f"blazeface track took longer than {timeout:g} s"
        _remove(partial)
        return row
    except (OSError, ValueError) as error:
        row["error"] = f"cannot run blazeface track: {error}"
        _remove(partial)
        return row
    if not lines:
        _remove(target)
    summary = summarize_frames(lines)
    row.update(frames=summary["frames"], seconds=summary["seconds"], ids=len(summary["tracks"]),
               tracks=json.dumps(summary["tracks"], separators=(",", ":")), frames_file=target if lines else None,
               summary="\n".join(line for line in stderr.splitlines() if not line.startswith("error:")) or None)
    if result.returncode != 0:
        errors = [line[len("error:"):].strip() for line in stderr.splitlines() if line.startswith("error:")]
        row["error"] = "; ".join(errors) or f"blazeface track exited with status {result.returncode}"
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
