"""The Ray Data job: paths -> map_batches(BlazefaceBatch) on an actor pool -> Parquet."""

from __future__ import annotations

import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from typing import List, Optional, Sequence

import pyarrow as pa

from .actor import BlazefaceBatch
from .coprocess import BlazefaceError, build_command, check_binary


@dataclass
class ScanOptions:
    binary: str
    task: str = "detect"
    threads: int = 2
    concurrency: int = 1
    batch_size: int = 32
    models_dir: Optional[str] = None
    extra_args: List[str] = field(default_factory=list)
    timeout: float = 300.0
    block_rows: int = 512

    def command(self, task: Optional[str] = None) -> list:
        return build_command(self.binary, task or self.task, self.threads, self.models_dir, self.extra_args)


def _check_on_node(command: Sequence[str]) -> Optional[str]:
    """Runs on one node: None when the binary starts there and loads its models, else the reason."""
    try:
        check_binary(command)
        return None
    except BlazefaceError as error:
        return str(error)


def preflight(options: ScanOptions) -> int:
    """Checks on every alive node with CPUs that the binary starts and loads its models, before the job.

    Returns the number of nodes checked; raises BlazefaceError naming the first node where it fails.
    """
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    check = ray.remote(num_cpus=0, max_retries=0)(_check_on_node)
    nodes = [node for node in ray.nodes() if node.get("Alive") and node.get("Resources", {}).get("CPU", 0) > 0]
    if not nodes:
        raise BlazefaceError("the Ray cluster has no alive node with CPUs")
    pending = {
        check.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False))
        .remote(options.command()): node for node in nodes}
    for reference, node in pending.items():
        reason = ray.get(reference)
        if reason:
            address = node.get("NodeManagerAddress", "?")
            raise BlazefaceError(f"on node {node['NodeID'][:12]} ({address}): {reason}")
    return len(nodes)


def build_dataset(paths: Sequence[str], options: ScanOptions):
    """The lazy dataset of result rows for `paths`."""
    import ray

    tables = [pa.table({"path": pa.array(paths[start:start + options.block_rows], pa.string())})
              for start in range(0, len(paths), options.block_rows)]
    source = ray.data.from_arrow(tables)
    return source.map_batches(
        BlazefaceBatch,
        fn_constructor_kwargs={"binary": options.binary, "task": options.task, "threads": options.threads,
                               "models_dir": options.models_dir, "extra_args": list(options.extra_args),
                               "timeout": options.timeout},
        compute=ray.data.ActorPoolStrategy(size=options.concurrency),
        num_cpus=options.threads,
        batch_size=options.batch_size,
        batch_format="pyarrow",
        udf_modifying_row_count=False,
    )


def prepare_output(output: str, overwrite: bool) -> None:
    if os.path.lexists(output):
        if not overwrite:
            raise BlazefaceError(f"{output} exists: remove it or pass --overwrite")
        if os.path.isdir(output) and not os.path.islink(output):
            shutil.rmtree(output)
        else:
            os.remove(output)


def count_rows(output: str) -> dict:
    """Rows and error rows of the written Parquet folder."""
    import pyarrow.dataset as ds

    table = ds.dataset(output, format="parquet").to_table(columns=["error"])
    errors = table.column("error").null_count
    return {"rows": table.num_rows, "errors": table.num_rows - errors}


def _run_job(paths: Sequence[str], output: str, options: ScanOptions, address: Optional[str], overwrite: bool,
             build, log) -> dict:
    """Starts or joins Ray, checks the binary on every node, runs `build(paths).write_parquet(output)`; the summary."""
    import ray

    if not paths:
        raise BlazefaceError("no input file")
    prepare_output(output, overwrite)
    local = address in (None, "", "local")
    if local:
        check_binary(options.command())      # fails fast, before Ray starts
    started = time.monotonic()
    # The package travels to the workers with the job (py_modules): the nodes need Ray, pyarrow and the blazeface
    # binary, not this package.
    package = os.path.dirname(os.path.abspath(__file__))
    ray.init(address=None if local else address, log_to_driver=True, logging_level="warning",
             runtime_env={"py_modules": [package]})
    try:
        context = ray.data.DataContext.get_current()
        context.enable_progress_bars = sys.stderr.isatty()
        nodes = preflight(options)
        print(f"blazeface_ray: {len(paths)} inputs, {nodes} node(s) checked, {options.concurrency} actor(s) x "
              f"{options.threads} thread(s)", file=log, flush=True)
        job_start = time.monotonic()
        # The writes are light: with num_cpus=0 they run while the actors hold every CPU, so rows reach the
        # Parquet files as they come instead of waiting in the object store for the last batch.
        build(paths).write_parquet(output, ray_remote_args={"num_cpus": 0})
        seconds = time.monotonic() - job_start
    finally:
        ray.shutdown()
    return {"pictures": len(paths), **count_rows(output), "seconds": round(seconds, 3),
            "pictures_per_second": round(len(paths) / seconds, 1) if seconds > 0 else None,
            "total_seconds": round(time.monotonic() - started, 3)}


def run_scan(paths: Sequence[str], output: str, options: ScanOptions, address: Optional[str] = None,
             overwrite: bool = False, log=sys.stderr) -> dict:
    """Pictures: runs the whole job and returns its summary (pictures, rows, errors, seconds, pictures per second)."""
    return _run_job(paths, output, options, address, overwrite, lambda p: build_dataset(p, options), log)


def run_scan_videos(paths: Sequence[str], output: str, frames_dir: str, options: ScanOptions,
                    address: Optional[str] = None, overwrite: bool = False, timeout: float = 3600.0,
                    track_args: Sequence[str] = (), log=sys.stderr) -> dict:
    """Videos: one task per video through `blazeface track` (at most `options.concurrency` at once, each with
    `options.threads` threads and CPUs); per-frame lines under `frames_dir`, one summary row per video.
    `track_args` are more options of `track`; `options.extra_args` stay those of the preflight's `detect`."""
    import ray

    from .videos import track_batch

    os.makedirs(frames_dir, exist_ok=True)
    frames_dir = os.path.abspath(frames_dir)

    def build(video_paths):
        source = ray.data.from_arrow([pa.table({"path": pa.array([path], pa.string())}) for path in video_paths])
        return source.map_batches(
            track_batch, fn_kwargs={"binary": options.binary, "frames_dir": frames_dir, "threads": options.threads,
                                    "models_dir": options.models_dir, "extra_args": list(track_args),
                                    "timeout": timeout},
            batch_size=1, num_cpus=options.threads, batch_format="pyarrow", udf_modifying_row_count=False,
            compute=ray.data.TaskPoolStrategy(size=options.concurrency))

    summary = _run_job(paths, output, options, address, overwrite, build, log)
    summary["videos"] = summary.pop("pictures")
    summary["videos_per_second"] = summary.pop("pictures_per_second")
    return summary
