"""The callable class for Ray Data's `Dataset.map_batches`: one blazeface co-process per actor, for its lifetime.

    ds.map_batches(BlazefaceBatch, fn_constructor_kwargs={"binary": ..., "task": "detect", "threads": 2},
                   compute=ray.data.ActorPoolStrategy(size=N), num_cpus=2, batch_size=64, batch_format="pyarrow")

The batch has a `path` column; the result has the columns of `SCHEMA`, one row per path, in the same order.
"""

from __future__ import annotations

import atexit
import os
from typing import Optional, Sequence

import pyarrow as pa

from .coprocess import build_command
from .runner import COLUMNS, PictureRunner

#: The result's columns. Explicit, so that a batch of errors only (all-null columns) still writes the same
#: Parquet schema as the others.
SCHEMA = pa.schema([
    ("path", pa.string()),
    ("width", pa.int32()),
    ("height", pa.int32()),
    ("face_count", pa.int32()),
    ("faces", pa.string()),   # the faces array of the CLI's JSON, as compact JSON text
    ("error", pa.string()),
])
assert tuple(SCHEMA.names) == COLUMNS


def _paths_of(batch) -> list:
    """The `path` column of a pyarrow Table, a pandas DataFrame or a dict of arrays, as Python strings."""
    if isinstance(batch, pa.Table):
        return batch.column("path").to_pylist()
    column = batch["path"]
    return [str(path) for path in (column.tolist() if hasattr(column, "tolist") else column)]


def rows_to_table(rows: Sequence[dict]) -> pa.Table:
    return pa.Table.from_pydict({name: [row[name] for row in rows] for name in COLUMNS}, schema=SCHEMA)


class BlazefaceBatch:
    """Detects (or analyzes) the pictures of each batch with one `blazeface` co-process kept for the actor's life.

    binary: path of the blazeface executable on the worker nodes. task: detect, landmarks or analyze.
    threads: the co-process's `--threads` (give the actor as many `num_cpus`). models_dir: `--models-dir`, when the
    models are not beside the binary or in $BLAZEFACE_MODELS on the workers. extra_args: more options of the task
    (`--model short-range`, `--min-score 0.7`, ...). timeout: seconds of silence after which a co-process with
    pictures in flight is taken for hung.
    """

    def __init__(self, binary: str, task: str = "detect", threads: int = 1, models_dir: Optional[str] = None,
                 extra_args: Sequence[str] = (), timeout: float = 300.0):
        command = build_command(binary, task, threads, models_dir, extra_args)
        self.runner = PictureRunner(command, timeout=timeout)
        self.runner.coprocess.start()
        atexit.register(self.runner.close)

    def __call__(self, batch) -> pa.Table:
        return rows_to_table(self.runner.run(_paths_of(batch)))

    def __del__(self):
        runner = getattr(self, "runner", None)
        if runner is not None:
            runner.close()

    def describe(self) -> dict:
        """The actor's co-process and its restarts (for logs)."""
        return {"pid": os.getpid(), "coprocess": self.runner.coprocess.pid, "restarts": self.runner.restarts,
                "deaths": list(self.runner.deaths)}
