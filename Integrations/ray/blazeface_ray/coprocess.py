"""One long-lived `blazeface <task> --files-from - --json-lines` process, and the protocol spoken with it.

The process reads picture paths on its standard input, one per line, and writes one compact JSON line per path on
its standard output, in the order of the input, flushed as each picture is done. It keeps its models loaded for its
whole life and ends (exit status 0) when its standard input closes.

No shell is involved: the command is an argument list and the paths travel through the pipe.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

#: The tasks whose per-picture JSON has `width`, `height` and `faces`.
TASKS = ("detect", "landmarks", "analyze")

#: Options that the wrapper sets itself and that extra arguments may not repeat.
_RESERVED = ("--files-from", "--json-lines", "--json", "--unordered", "--threads", "--models-dir", "--annotate")

#: The CLI reads at most this many bytes per input line (LineSource.swift).
MAX_PATH_BYTES = 16_384


class BlazefaceError(RuntimeError):
    """The binary cannot do the work at all (it is missing, or it stops before reading any picture)."""


class CoProcessDied(RuntimeError):
    """The co-process ended, closed a pipe, broke the protocol or went silent while pictures were in flight."""

    def __init__(self, reason: str, exit_status: Optional[int] = None, crashed: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.exit_status = exit_status
        #: True when it died by a signal or went silent (what a picture can cause), False for a clean exit
        #: or an exit with an error status (what a broken installation causes).
        self.crashed = crashed


def unsendable_reason(path: str) -> Optional[str]:
    """Why `path` cannot travel as one input line unchanged, or None when it can."""
    if path == "" or path.strip(" \t") == "":
        return "the path is empty"
    if "\n" in path:
        return "the path contains a line break"
    if path.endswith("\r"):
        return "the path ends with a carriage return"
    try:
        encoded = path.encode("utf-8")
    except UnicodeEncodeError:
        return "the path is not valid UTF-8"
    if len(encoded) > MAX_PATH_BYTES:
        return f"the path is longer than {MAX_PATH_BYTES} bytes"
    return None


def build_command(binary: str, task: str, threads: int, models_dir: Optional[str],
                  extra_args: Sequence[str] = ()) -> list:
    """The argument list of the co-process."""
    if task not in TASKS:
        raise ValueError(f"task must be one of {', '.join(TASKS)}, not {task!r}")
    if threads < 1:
        raise ValueError("threads must be at least 1")
    for argument in extra_args:
        if argument.split("=", 1)[0] in _RESERVED:
            raise ValueError(f"{argument} is set by the integration itself")
    command = [binary, task, "--files-from", "-", "--json-lines", "--threads", str(threads)]
    if models_dir:
        command += ["--models-dir", models_dir]
    return command + list(extra_args)


@dataclass
class _Tail:
    """The last bytes a stream wrote, for error messages."""
    limit: int = 4096
    data: bytes = b""

    def add(self, chunk: bytes) -> None:
        self.data = (self.data + chunk)[-self.limit:]

    def text(self) -> str:
        return self.data.decode("utf-8", "replace").strip()


class CoProcess:
    """A running `blazeface ... --files-from - --json-lines` and the exchange of paths for JSON lines.

    `run` sends paths and yields `(index, record)` for each answered path, in order. When the process dies, closes a
    pipe, answers a line that is not the expected path's, or stays silent for `timeout` seconds while pictures are in
    flight, `run` raises `CoProcessDied`; the records already yielded stay valid and the process is stopped.
    """

    def __init__(self, command: Sequence[str], timeout: float = 300.0, env: Optional[dict] = None):
        self.command = list(command)
        self.timeout = timeout
        self.env = env
        self.process: Optional[subprocess.Popen] = None
        self._stderr = _Tail()
        self._pending = b""

    @property
    def pid(self) -> Optional[int]:
        return self.process.pid if self.process else None

    def start(self) -> None:
        self.stop()
        self._stderr = _Tail()
        self._pending = b""
        try:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                bufsize=0, close_fds=True, env=self.env, start_new_session=False)
        except OSError as error:
            raise BlazefaceError(f"cannot start {self.command[0]}: {error}") from error
        os.set_blocking(self.process.stdin.fileno(), False)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def run(self, paths: Sequence[str]) -> Iterable[tuple]:
        """Sends `paths` and yields `(index, record)` for each of them in order, as the lines come."""
        if not self.alive():
            self.start()
        payload = b"".join(path.encode("utf-8") + b"\n" for path in paths)
        stdin, stdout, stderr = self.process.stdin, self.process.stdout, self.process.stderr
        selector = selectors.DefaultSelector()
        selector.register(stdout, selectors.EVENT_READ, "out")
        selector.register(stderr, selectors.EVENT_READ, "err")
        if payload:
            selector.register(stdin, selectors.EVENT_WRITE, "in")
        written = 0
        answered = 0
        deadline = time.monotonic() + self.timeout
        try:
            while answered < len(paths):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._fail(f"no answer for {self.timeout:g} s", crashed=True, kill_now=True)
                for key, _ in selector.select(timeout=remaining):
                    if key.data == "in":
                        try:
                            written += os.write(stdin.fileno(), payload[written:written + 65536])
                        except BlockingIOError:
                            continue
                        except (BrokenPipeError, OSError) as error:
                            selector.unregister(stdin)
                            self._fail(f"its standard input closed ({error.strerror or error})")
                        if written == len(payload):
                            selector.unregister(stdin)
                    elif key.data == "err":
                        chunk = os.read(stderr.fileno(), 65536)
                        if chunk:
                            self._stderr.add(chunk)
                        else:
                            selector.unregister(stderr)
                    else:
                        chunk = os.read(stdout.fileno(), 65536)
                        if not chunk:
                            self._fail("its standard output closed")
                        self._pending += chunk
                        while answered < len(paths):
                            newline = self._pending.find(b"\n")
                            if newline < 0:
                                break
                            line, self._pending = self._pending[:newline], self._pending[newline + 1:]
                            record = self._parse(line, paths[answered])
                            deadline = time.monotonic() + self.timeout
                            yield answered, record
                            answered += 1
        finally:
            selector.close()

    def _parse(self, line: bytes, path: str) -> dict:
        try:
            record = json.loads(line)
        except ValueError:
            self._fail(f"it answered a line that is not JSON: {line[:200]!r}", crashed=True, kill_now=True)
        if not isinstance(record, dict) or record.get("path") != path:
            got = record.get("path") if isinstance(record, dict) else record
            self._fail(f"it answered for {got!r} where {path!r} was expected", crashed=True, kill_now=True)
        return record

    def _fail(self, reason: str, crashed: bool = False, kill_now: bool = False) -> None:
        """Stops the process and raises CoProcessDied with what is known of its end."""
        status = self._kill(grace=0.0 if kill_now else 2.0)
        if kill_now:
            status = None    # our own SIGKILL says nothing of the cause
        if status is not None and status < 0:
            try:
                name = signal.Signals(-status).name
            except ValueError:
                name = f"signal {-status}"
            reason = f"{reason}; it was ended by {name}"
            crashed = True
        elif status is not None:
            reason = f"{reason}; it exited with status {status}"
        message = self._stderr.text()
        if message:
            reason = f"{reason}: {message[-600:]}"
        raise CoProcessDied(reason, exit_status=status, crashed=crashed)

    def _kill(self, grace: float) -> Optional[int]:
        """Waits up to `grace` s for the process to end by itself, then kills it; its exit status."""
        process, self.process = self.process, None
        if process is None:
            return None
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        self._drain_stderr(process)
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                stream.close()
            except OSError:
                pass
        return process.returncode

    def _drain_stderr(self, process: subprocess.Popen) -> None:
        try:
            os.set_blocking(process.stderr.fileno(), False)
            while True:
                chunk = os.read(process.stderr.fileno(), 65536)
                if not chunk:
                    return
                self._stderr.add(chunk)
        except (BlockingIOError, OSError, ValueError):
            return

    def stop(self, grace: float = 10.0) -> Optional[int]:
        """Closes the standard input (the process finishes and exits 0) and waits; kills it after `grace` s."""
        process, self.process = self.process, None
        if process is None:
            return None
        try:
            process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for stream in (process.stdout, process.stderr):
            try:
                stream.close()
            except OSError:
                pass
        return process.returncode


def check_binary(command: Sequence[str], timeout: float = 120.0) -> None:
    """Runs the co-process command on an empty input: it loads the models and exits 0, or says why not.

    Raises BlazefaceError with the binary's own message.
    """
    command = list(command)
    try:
        result = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    except FileNotFoundError as error:
        raise BlazefaceError(f"the blazeface binary {command[0]!r} does not exist") from error
    except PermissionError as error:
        raise BlazefaceError(f"the blazeface binary {command[0]!r} cannot be run: {error}") from error
    except subprocess.TimeoutExpired as error:
        raise BlazefaceError(f"{command[0]} did not answer within {timeout:g} s") from error
    if result.returncode != 0:
        message = (result.stderr or result.stdout).decode("utf-8", "replace").strip()
        raise BlazefaceError(f"{command[0]} cannot start (exit status {result.returncode}): {message}")
