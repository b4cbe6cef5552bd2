"""Pictures in, one row per picture out, through a co-process that is restarted when it dies.

The policy, for one batch of paths:

* Paths that cannot travel as one input line (empty, a line break, not UTF-8, too long) get an error row at once.
* The others go to the co-process. Each answered line is kept. If the co-process dies (it exits, a pipe closes, it
  answers out of turn, or it is silent for `timeout` seconds), it is restarted once and the unanswered rest of the
  batch is sent again: no row is lost, none is duplicated.
* If it dies a second time in the same batch, the rest of the batch is sent one path at a time, so that a picture
  that crashes the program is found: a picture on which a fresh co-process dies twice in a row, alone, gets an
  error row, and the batch goes on. A co-process that cannot start at all (it exits with an error status before
  answering anything) is a `BlazefaceError`: the task fails and the engine reports it.
"""

from __future__ import annotations

import json
from typing import List, Optional, Sequence

from .coprocess import BlazefaceError, CoProcess, CoProcessDied, unsendable_reason

#: The columns of a result, in order.
COLUMNS = ("path", "width", "height", "face_count", "faces", "error")


def error_row(path: str, message: str) -> dict:
    return {"path": path, "width": None, "height": None, "face_count": None, "faces": None, "error": message}


def record_row(record: dict) -> dict:
    """The row of one JSON line of the CLI: faces as compact JSON text (every float as the binary wrote it,
    since Python's float repr round-trips the double exactly), or the error."""
    if "error" in record:
        return error_row(record["path"], str(record["error"]))
    faces = record.get("faces", [])
    return {"path": record["path"], "width": record.get("width"), "height": record.get("height"),
            "face_count": len(faces), "faces": json.dumps(faces, separators=(",", ":"), sort_keys=True),
            "error": None}


class PictureRunner:
    """Runs batches of paths through one co-process kept for the runner's life."""

    def __init__(self, command: Sequence[str], timeout: float = 300.0, env: Optional[dict] = None):
        self.coprocess = CoProcess(command, timeout=timeout, env=env)
        #: How many times the co-process was restarted after dying (for logs and tests).
        self.restarts = 0
        #: The reasons of those deaths, newest last (at most 20).
        self.deaths: List[str] = []

    def close(self) -> None:
        self.coprocess.stop()

    def run(self, paths: Sequence[str]) -> List[dict]:
        """One row per path, in the order of `paths`."""
        rows: List[Optional[dict]] = [None] * len(paths)
        todo = []
        for index, path in enumerate(paths):
            reason = unsendable_reason(path)
            if reason:
                rows[index] = error_row(path, reason)
            else:
                todo.append(index)
        deaths_in_batch = 0
        while todo:
            if deaths_in_batch < 2:
                try:
                    self._send(paths, todo, rows)
                    todo = []
                except CoProcessDied as death:
                    deaths_in_batch += 1
                    self._note(death, answered_any=any(rows[i] is not None for i in todo))
                    todo = [i for i in todo if rows[i] is None]
            else:
                index = todo.pop(0)
                self._isolate(paths, index, rows)
        return rows

    def _send(self, paths: Sequence[str], indices: List[int], rows: List[Optional[dict]]) -> None:
        batch = [paths[i] for i in indices]
        for position, record in self.coprocess.run(batch):
            rows[indices[position]] = record_row(record)

    def _isolate(self, paths: Sequence[str], index: int, rows: List[Optional[dict]]) -> None:
        """Sends one path alone, in a fresh co-process after a death; two deaths on it alone make an error row."""
        reasons = []
        for _ in range(2):
            try:
                self._send(paths, [index], rows)
                return
            except CoProcessDied as death:
                self._note(death, answered_any=False)
                reasons.append(death.reason)
        rows[index] = error_row(paths[index], "blazeface died on this picture: " + reasons[-1])

    def _note(self, death: CoProcessDied, answered_any: bool) -> None:
        """Records a death; one that is not a crash and came before any answer means the binary cannot work."""
        self.restarts += 1
        self.deaths = (self.deaths + [death.reason])[-20:]
        if not death.crashed and not answered_any and death.exit_status not in (None, 0):
            raise BlazefaceError(f"blazeface cannot run: {death.reason}") from death
