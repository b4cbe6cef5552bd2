#!/usr/bin/env python3
"""Side-by-side load benchmark: `blazeface serve` against MediaPipe behind FastAPI + uvicorn
(Benchmarks/mediapipe_server.py), on loopback, one server at a time. Run through Benchmarks/compare_serve.sh.

Comparison (default): for each round, the sides in ABBA order (round 0: ours then the anchor, round 1: the anchor
then ours, ...); for each side and endpoint (detect, analyze) a fresh server is started (ours:
`blazeface serve --workers W --max-queue Q --detector short-range --log-level warning`; the anchor: uvicorn
--workers W from the venv whose mediapipe serves that endpoint), waited for until ready, then for each concurrency
C (1, 4, 16) C closed-loop clients (asyncio + aiohttp, one keep-alive connection each) post the sample pictures
in a fixed rotation for WARMUP seconds (discarded) and DURATION seconds (measured); then the server is stopped
(SIGTERM, and its process group killed if it lingers). Only responses completed inside the measured window count.
Per run: requests/s, p50/p90/p99 latency, non-200 answers (503s counted apart; after a 503 a client waits 50 ms,
or less than Retry-After, so that it does not spin), transport errors, the server's CPU time per request (user +
system of its whole process tree, from /proc), the load generator's own CPU share and the server's RSS at the end.
Before each side's first run, each picture is posted once and its face count recorded (a sanity check that the
two sides see the same faces). The report gives the medians over rounds and the ratio ours/anchor of the median
requests/s (with the range of the per-round ratios).

Soak (--soak SECONDS): our server only, detect at concurrency 16 for SECONDS, sampling the server's VmRSS every
--soak-interval seconds; reports RSS after --soak-warmup seconds vs at the end, min/max after warm-up and the
slope of a least-squares line (MiB per hour).

Results: Benchmarks/results/latest-serve.json (keys "comparison" and "soak"; a run replaces only its own key) and
latest-serve.md, rendered from both.
"""
from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import math
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from importlib import metadata as importlib_metadata

import aiohttp

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_SAMPLES = ["astronaut.png", "t1.jpg", "obama.jpg", "single_face.jpg"]
ENDPOINTS = ["detect", "analyze"]
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
RUNNING: list[subprocess.Popen] = []  # servers to stop on any exit


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------------------------------------
# /proc: process tree, CPU time, RSS

def _children(pid: int) -> list[int]:
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


def process_tree(pid: int) -> list[int]:
    tree, todo = [], [pid]
    while todo:
        p = todo.pop()
        tree.append(p)
        todo += _children(p)
    return tree


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
        except (OSError, IndexError, ValueError):
            pass
    return total / CLK_TCK


def machine_busy_seconds() -> float:
    """CPU time every core has spent not idle since boot (/proc/stat), in seconds."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)  # idle + iowait
    return (sum(v[:8]) - idle) / CLK_TCK


def rss_mib(pids: list[int]) -> float:
    total_kib = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total_kib += int(line.split()[1])
                        break
        except OSError:
            pass
    return total_kib / 1024


# ----------------------------------------------------------------------------------------------------------
# Servers

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url: str, timeout: float = 2.0) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except OSError:
        return 0, b""


class Server:
    """One server process (and its children), started in its own session so that it can be stopped whole."""

    def __init__(self, side: str, endpoint: str, args, logdir: str):
        self.side, self.endpoint, self.port = side, endpoint, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = os.path.join(logdir, f"{side}-{endpoint}-{self.port}.log")
        if side == "ours":
            cmd = [args.blazeface, "serve", "--host", "127.0.0.1", "--port", str(self.port),
                   "--workers", str(args.workers), "--max-queue", str(args.max_queue),
                   "--detector", args.detector, "--log-level", "warning"]
            if args.models_dir:
                cmd += ["--models-dir", args.models_dir]
            env = dict(os.environ)
        else:
            python = args.anchor_python_detect if endpoint == "detect" else args.anchor_python_analyze
            cmd = [python, "-m", "uvicorn", "--app-dir", HERE, "mediapipe_server:app", "--host", "127.0.0.1",
                   "--port", str(self.port), "--workers", str(args.workers), "--no-access-log",
                   "--log-level", "warning"]
            env = dict(os.environ, MP_ENDPOINTS=endpoint, GLOG_minloglevel="2", TF_CPP_MIN_LOG_LEVEL="2")
        self.cmd = cmd
        self.logf = open(self.log_path, "wb")
        self.proc = subprocess.Popen(cmd, stdout=self.logf, stderr=subprocess.STDOUT, env=env, cwd=ROOT,
                                     start_new_session=True)
        RUNNING.append(self.proc)

    def wait_ready(self, workers: int, timeout: float = 120.0) -> None:
        """Ours: /readyz is 200. The anchor: /healthz has answered from `workers` distinct worker pids (each
        worker loads its models at import, before it accepts), or from one of them after half the timeout."""
        deadline = time.monotonic() + timeout
        pids: set[int] = set()
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.side} server exited ({self.proc.returncode}); see {self.log_path}")
            if self.side == "ours":
                status, _ = http_get(self.base + "/readyz")
                if status == 200:
                    return
            else:
                status, body = http_get(self.base + "/healthz")
                if status == 200:
                    pids.add(json.loads(body)["pid"])
                    if len(pids) >= workers or (pids and time.monotonic() > deadline - timeout / 2):
                        return
            time.sleep(0.1)
        raise RuntimeError(f"{self.side} server not ready in {timeout} s; see {self.log_path}")

    def tree(self) -> list[int]:
        return process_tree(self.proc.pid)

    def stop(self, timeout: float = 30.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                log(f"{self.side} server did not stop in {timeout} s; killing its process group")
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # stragglers (uvicorn workers) in its session only
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.logf.close()
        if self.proc in RUNNING:
            RUNNING.remove(self.proc)
        return self.proc.returncode


def stop_all(*_):
    for p in list(RUNNING):
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for p in list(RUNNING):
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


# ----------------------------------------------------------------------------------------------------------
# Load

def load_samples(names: list[str]) -> list[tuple[str, bytes, str]]:
    out = []
    for name in names:
        path = name if os.path.isabs(name) else os.path.join(ROOT, "Models", "samples", name)
        with open(path, "rb") as f:
            data = f.read()
        ctype = "image/png" if path.lower().endswith(".png") else "image/jpeg"
        out.append((os.path.basename(path), data, ctype))
    return out


async def probe(base: str, endpoint: str, samples) -> dict[str, int | str]:
    """Posts each picture once; its face count, or the status when not 200."""
    out = {}
    async with aiohttp.ClientSession() as session:
        for name, data, ctype in samples:
            async with session.post(f"{base}/v1/{endpoint}", data=data, headers={"Content-Type": ctype}) as r:
                body = await r.read()
                out[name] = len(json.loads(body)["faces"]) if r.status == 200 else f"HTTP {r.status}"
    return out


async def closed_loop(base: str, endpoint: str, samples, concurrency: int, warmup: float, duration: float,
                      on_window=None) -> dict:
    """`concurrency` clients, each posting, reading the answer, posting again. Counts what completes inside
    [start + warmup, start + warmup + duration). `on_window(kind)` is called at 'start' and 'end' of the window."""
    url = f"{base}/v1/{endpoint}"
    latencies: list[float] = []
    by_picture: dict[str, list[float]] = {name: [] for name, _, _ in samples}
    counts = {"ok": 0, "non200": 0, "s503": 0, "transport": 0}
    statuses: dict[int, int] = {}
    t0 = time.monotonic()
    w0, w1 = t0 + warmup, t0 + warmup + duration
    stop = asyncio.Event()
    timeout = aiohttp.ClientTimeout(total=120)
    connector = aiohttp.TCPConnector(limit=concurrency, force_close=False)

    async def client(i: int, session: aiohttp.ClientSession):
        k = i
        while not stop.is_set():
            name, data, ctype = samples[k % len(samples)]
            k += 1
            start = time.monotonic()
            status, retry = 0, None
            try:
                async with session.post(url, data=data, headers={"Content-Type": ctype}) as r:
                    await r.read()
                    status, retry = r.status, r.headers.get("Retry-After")
            except (aiohttp.ClientError, asyncio.TimeoutError, OSError):
                status = -1
            end = time.monotonic()
            if w0 <= start and end < w1:  # started and finished inside the window
                if status == 200:
                    counts["ok"] += 1
                    latencies.append(end - start)
                    by_picture[name].append(end - start)
                elif status == -1:
                    counts["transport"] += 1
                else:
                    counts["non200"] += 1
                    statuses[status] = statuses.get(status, 0) + 1
                    if status == 503:
                        counts["s503"] += 1
            if status == 503:
                try:
                    pause = min(0.05, float(retry)) if retry else 0.05
                except ValueError:
                    pause = 0.05
                await asyncio.sleep(pause)
            elif status == -1:
                await asyncio.sleep(0.05)

    async def clock():
        await asyncio.sleep(max(0.0, w0 - time.monotonic()))
        if on_window:
            on_window("start")
        cpu0, busy0 = time.process_time(), machine_busy_seconds()
        await asyncio.sleep(max(0.0, w1 - time.monotonic()))
        if on_window:
            on_window("end")
        clock.client_cpu = time.process_time() - cpu0
        clock.busy = machine_busy_seconds() - busy0
        stop.set()

    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        tasks = [asyncio.create_task(client(i, session)) for i in range(concurrency)]
        await clock()
        # let the requests in flight finish (they are not counted), so the next run starts clean
        await asyncio.wait(tasks, timeout=130)
    lat = sorted(latencies)

    def pct(q: float) -> float | None:
        if not lat:
            return None
        return lat[min(len(lat) - 1, max(0, math.ceil(q * len(lat)) - 1))] * 1000  # nearest rank, ms

    return {"requests": counts["ok"], "rps": counts["ok"] / duration,
            "p50_ms": pct(0.50), "p90_ms": pct(0.90), "p99_ms": pct(0.99),
            "max_ms": lat[-1] * 1000 if lat else None,
            "errors": counts["non200"] + counts["transport"], "errors_503": counts["s503"],
            "errors_transport": counts["transport"], "statuses": {str(k): v for k, v in statuses.items()},
            "client_cpu_share": clock.client_cpu / duration, "machine_busy_share": clock.busy / duration,
            "p50_ms_by_picture": {k: statistics.median(v) * 1000 if v else None for k, v in by_picture.items()}}


# ----------------------------------------------------------------------------------------------------------
# Comparison

def run_side(side: str, endpoint: str, args, samples, logdir: str) -> tuple[list[dict], dict]:
    server = Server(side, endpoint, args, logdir)
    runs = []
    try:
        t = time.monotonic()
        server.wait_ready(args.workers)
        log(f"  {side} {endpoint}: ready in {time.monotonic() - t:.1f} s (port {server.port})")
        faces = asyncio.run(probe(server.base, endpoint, samples))
        for c in args.concurrency:
            marks = {}

            def on_window(kind, marks=marks):
                marks[kind] = (cpu_seconds(server.tree()), time.monotonic())

            res = asyncio.run(closed_loop(server.base, endpoint, samples, c, args.warmup, args.duration, on_window))
            (cpu0, _), (cpu1, _) = marks["start"], marks["end"]
            res.update(side=side, endpoint=endpoint, concurrency=c,
                       server_cpu_ms_per_request=(cpu1 - cpu0) * 1000 / res["requests"] if res["requests"] else None,
                       server_cpu_share=(cpu1 - cpu0) / args.duration, server_rss_mib=rss_mib(server.tree()))
            # what neither the server nor the load generator used: other processes on the machine
            res["other_cpu_share"] = max(0.0, res["machine_busy_share"] - res["server_cpu_share"]
                                         - res["client_cpu_share"])
            log(f"  {side:6} {endpoint:7} c={c:<3} {res['rps']:8.1f} req/s  p50 {fmt(res['p50_ms'])} ms  "
                f"p99 {fmt(res['p99_ms'])} ms  errors {res['errors']} (503: {res['errors_503']})  "
                f"server CPU {res['server_cpu_share']*100:.0f}%  client CPU {res['client_cpu_share']*100:.0f}%  "
                f"other CPU {res['other_cpu_share']*100:.0f}%")
            runs.append(res)
    finally:
        rc = server.stop()
        if rc not in (0, -signal.SIGTERM):
            log(f"  {side} {endpoint}: server exit status {rc} (log {server.log_path})")
    return runs, faces


def fmt(x, digits: int = 1) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def pct_(x) -> str:
    return "—" if x is None else f"{x * 100:.0f}"


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def summarize(runs: list[dict], concurrency: list[int], endpoints: list[str]) -> list[dict]:
    rows = []
    for endpoint in endpoints:
        for c in concurrency:
            row = {"endpoint": endpoint, "concurrency": c}
            for side in ("ours", "anchor"):
                rs = [r for r in runs if r["side"] == side and r["endpoint"] == endpoint and r["concurrency"] == c]
                if not rs:
                    continue
                row[side] = {
                    "rounds": len(rs),
                    "rps": median([r["rps"] for r in rs]),
                    "p50_ms": median([r["p50_ms"] for r in rs]),
                    "p99_ms": median([r["p99_ms"] for r in rs]),
                    "max_ms": max((r["max_ms"] for r in rs if r["max_ms"] is not None), default=None),
                    "errors": sum(r["errors"] for r in rs), "errors_503": sum(r["errors_503"] for r in rs),
                    "cpu_ms_per_request": median([r["server_cpu_ms_per_request"] for r in rs]),
                    "client_cpu_share": median([r["client_cpu_share"] for r in rs]),
                    "rss_mib": median([r["server_rss_mib"] for r in rs]),
                    "other_cpu_share": median([r["other_cpu_share"] for r in rs]),
                    "p50_ms_by_picture": {k: median([r["p50_ms_by_picture"].get(k) for r in rs])
                                          for k in rs[0]["p50_ms_by_picture"]},
                }
            if "ours" in row and "anchor" in row and row["anchor"]["rps"]:
                row["ratio_rps"] = row["ours"]["rps"] / row["anchor"]["rps"]
                paired = []
                for rnd in sorted({r["round"] for r in runs}):
                    o = [r["rps"] for r in runs if r["round"] == rnd and r["side"] == "ours"
                         and r["endpoint"] == endpoint and r["concurrency"] == c]
                    a = [r["rps"] for r in runs if r["round"] == rnd and r["side"] == "anchor"
                         and r["endpoint"] == endpoint and r["concurrency"] == c]
                    if o and a and a[0]:
                        paired.append(o[0] / a[0])
                row["ratio_rps_rounds"] = [min(paired), max(paired)] if paired else None
            if "ours" in row or "anchor" in row:
                rows.append(row)
    return rows


def goals(rows: list[dict], concurrency: list[int], soak: dict | None) -> list[dict]:
    top, below = max(concurrency), [c for c in concurrency if c < max(concurrency)]
    out = []
    for endpoint in ENDPOINTS:
        row = next((r for r in rows if r["endpoint"] == endpoint and r["concurrency"] == top), None)
        if row and "ratio_rps" in row:
            out.append({"goal": f"{endpoint}: ≥ 3× the anchor's requests/s at saturation (c={top})",
                        "value": f"{row['ratio_rps']:.2f}×", "met": row["ratio_rps"] >= 3})
        if row and "ours" in row and row["ours"]["p50_ms"]:
            q = row["ours"]["p99_ms"] / row["ours"]["p50_ms"]
            out.append({"goal": f"{endpoint}: ours p99 ≤ 3× p50 at c={top}",
                        "value": f"p99/p50 = {q:.2f}", "met": q <= 3})
        errs = sum(r["ours"]["errors"] for r in rows if r["endpoint"] == endpoint and r["concurrency"] in below
                   and "ours" in r)
        out.append({"goal": f"{endpoint}: ours 0 errors below saturation (c={', '.join(map(str, below))})",
                    "value": str(errs), "met": errs == 0})
    if soak:
        d = soak["rss_end_mib"] - soak["rss_after_warmup_mib"]
        out.append({"goal": "soak: ours RSS flat within ±5 MiB after warm-up",
                    "value": f"{d:+.1f} MiB (range {soak['rss_min_mib']:.1f}–{soak['rss_max_mib']:.1f})",
                    "met": abs(d) <= 5 and soak["rss_max_mib"] - soak["rss_min_mib"] <= 10})
    return out


def environment(args) -> dict:
    def git(*a):
        try:
            return subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return None

    def ver(python: str) -> str | None:
        try:
            return subprocess.run([python, "-c", "from importlib.metadata import version as v;"
                                   "print(v('mediapipe'), v('fastapi'), v('uvicorn'), v('numpy'))"],
                                  capture_output=True, text=True, timeout=60).stdout.strip()
        except OSError:
            return None

    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
    except OSError:
        pass
    dirty = git("status", "--porcelain", "--", "Sources", "Package.swift")
    binary = {}
    try:
        import hashlib
        with open(args.blazeface, "rb") as f:
            binary["sha256"] = hashlib.sha256(f.read()).hexdigest()[:16]
        binary["built"] = datetime.datetime.fromtimestamp(
            os.path.getmtime(args.blazeface), datetime.timezone.utc).isoformat(timespec="seconds")
    except OSError:
        pass
    return {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "commit": git("rev-parse", "--short", "HEAD"), "sources_dirty": bool(dirty),
            "cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "aiohttp": importlib_metadata.version("aiohttp"),
            "anchor_detect": ver(args.anchor_python_detect) if args.anchor_python_detect else None,
            "anchor_analyze": ver(args.anchor_python_analyze) if args.anchor_python_analyze else None,
            "blazeface": args.blazeface, "blazeface_sha256": binary.get("sha256"),
            "blazeface_built": binary.get("built")}


def compare(args, samples) -> dict:
    logdir = tempfile.mkdtemp(prefix="serve-load-")
    log(f"server logs in {logdir}")
    runs, faces = [], {}
    for rnd in range(args.rounds):
        order = ["ours", "anchor"] if rnd % 2 == 0 else ["anchor", "ours"]
        log(f"round {rnd + 1}/{args.rounds}: {' then '.join(order)}")
        for side in order:
            for endpoint in args.endpoints:
                rs, fc = run_side(side, endpoint, args, samples, logdir)
                for r in rs:
                    r["round"] = rnd
                runs += rs
                faces.setdefault(endpoint, {}).setdefault(side, fc)
    rows = summarize(runs, args.concurrency, args.endpoints)
    return {"environment": environment(args),
            "settings": {"rounds": args.rounds, "duration_s": args.duration, "warmup_s": args.warmup,
                         "concurrency": args.concurrency, "endpoints": args.endpoints, "workers": args.workers,
                         "max_queue": args.max_queue, "detector": args.detector,
                         "samples": [s[0] for s in samples]},
            "faces_per_sample": faces, "rows": rows, "runs": runs, "server_logs": logdir}


# ----------------------------------------------------------------------------------------------------------
# Soak

def soak(args, samples) -> dict:
    logdir = tempfile.mkdtemp(prefix="serve-soak-")
    server = Server("ours", "detect", args, logdir)
    samples_rss: list[dict] = []
    try:
        server.wait_ready(args.workers)
        t0 = time.monotonic()
        done = asyncio.Event()

        async def sampler():
            while True:
                samples_rss.append({"t_s": round(time.monotonic() - t0, 1), "rss_mib": rss_mib([server.proc.pid]),
                                    "cpu_s": cpu_seconds([server.proc.pid])})
                log(f"  soak t={samples_rss[-1]['t_s']:6.0f} s  RSS {samples_rss[-1]['rss_mib']:.1f} MiB")
                try:
                    await asyncio.wait_for(done.wait(), args.soak_interval)
                    return
                except asyncio.TimeoutError:
                    pass

        async def main():
            task = asyncio.create_task(sampler())
            res = await closed_loop(server.base, "detect", samples, args.soak_concurrency, 0.0, args.soak)
            done.set()
            await task
            return res

        res = asyncio.run(main())
        samples_rss.append({"t_s": round(time.monotonic() - t0, 1), "rss_mib": rss_mib([server.proc.pid]),
                            "cpu_s": cpu_seconds([server.proc.pid])})
    finally:
        rc = server.stop()
    after = [s for s in samples_rss if s["t_s"] >= args.soak_warmup] or samples_rss
    xs, ys = [s["t_s"] for s in after], [s["rss_mib"] for s in after]
    slope = None
    if len(xs) >= 2:
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        den = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den * 3600 if den else None
    out = {"seconds": args.soak, "concurrency": args.soak_concurrency, "endpoint": "detect",
           "warmup_s": args.soak_warmup, "interval_s": args.soak_interval, "environment": environment(args),
           "rss_start_mib": samples_rss[0]["rss_mib"], "rss_after_warmup_mib": after[0]["rss_mib"],
           "rss_end_mib": samples_rss[-1]["rss_mib"], "rss_min_mib": min(ys), "rss_max_mib": max(ys),
           "rss_slope_mib_per_hour": slope, "requests": res["requests"], "rps": res["rps"],
           "p50_ms": res["p50_ms"], "p99_ms": res["p99_ms"], "max_ms": res["max_ms"], "errors": res["errors"],
           "errors_503": res["errors_503"], "statuses": res["statuses"], "server_exit": rc, "samples": samples_rss,
           "server_log": server.log_path}
    log(f"soak: RSS {out['rss_after_warmup_mib']:.1f} MiB after {args.soak_warmup:.0f} s warm-up -> "
        f"{out['rss_end_mib']:.1f} MiB at the end; {res['rps']:.1f} req/s, errors {res['errors']}")
    return out


# ----------------------------------------------------------------------------------------------------------
# Report

def render(data: dict) -> str:
    cmp_, soak_ = data.get("comparison"), data.get("soak")
    lines = ["# `blazeface serve` vs MediaPipe + FastAPI/uvicorn: load on loopback", "",
             "Made by `Benchmarks/compare_serve.sh` (Benchmarks/serve_load.py); medians over rounds, sides "
             "alternating ABBA, one server at a time, both with the same number of worker processes/threads. "
             "Absolute figures vary with the machine's load; the ratios are the result.", ""]
    if cmp_:
        env, st = cmp_["environment"], cmp_["settings"]
        lines += [f"- Date {env['date']}; the repo then at commit {env['commit']}"
                  f"{' with uncommitted Sources/ changes' if env['sources_dirty'] else ''}; our binary built "
                  f"{env.get('blazeface_built')}, sha256 {env.get('blazeface_sha256')}…; "
                  f"{env['cpu']}, {env['cores']} cores; the load generator (Python {env['python']}, aiohttp "
                  f"{env['aiohttp']}) shares those cores with the server.",
                  f"- Ours: `blazeface serve --workers {st['workers']} --max-queue {st['max_queue']} --detector "
                  f"{st['detector']} --log-level warning`. Anchor: `uvicorn --workers {st['workers']}` running "
                  f"Benchmarks/mediapipe_server.py — detect: MediaPipe Tasks FaceDetector, short-range "
                  f"(mediapipe/fastapi/uvicorn/numpy {env['anchor_detect']}); analyze: legacy FaceMesh, "
                  f"refine_landmarks=True, static images (mediapipe/fastapi/uvicorn/numpy {env['anchor_analyze']}).",
                  f"- {st['rounds']} rounds × {st['warmup_s']:g} s warm-up + {st['duration_s']:g} s measured per "
                  f"endpoint and concurrency; closed-loop clients (one keep-alive connection each) posting "
                  f"{', '.join(st['samples'])} in turn.", "",
                  "| endpoint | clients | ours req/s | anchor req/s | ours/anchor (rounds) | ours p50 / p99 ms | "
                  "anchor p50 / p99 ms | ours errors (503) | anchor errors (503) | ours / anchor CPU ms per req | "
                  "other load % (ours / anchor runs) |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in cmp_["rows"]:
            o, a = r.get("ours", {}), r.get("anchor", {})
            rr = r.get("ratio_rps_rounds")
            ratio = (f"**{r['ratio_rps']:.2f}×** ({rr[0]:.2f}–{rr[1]:.2f})" if "ratio_rps" in r and rr
                     else fmt(r.get("ratio_rps"), 2))
            lines.append(
                f"| {r['endpoint']} | {r['concurrency']} | {fmt(o.get('rps'))} | {fmt(a.get('rps'))} | {ratio} | "
                f"{fmt(o.get('p50_ms'))} / {fmt(o.get('p99_ms'))} | {fmt(a.get('p50_ms'))} / {fmt(a.get('p99_ms'))} | "
                f"{o.get('errors', '—')} ({o.get('errors_503', '—')}) | {a.get('errors', '—')} ({a.get('errors_503', '—')}) | "
                f"{fmt(o.get('cpu_ms_per_request'), 2)} / {fmt(a.get('cpu_ms_per_request'), 2)} | "
                f"{pct_(o.get('other_cpu_share'))} / {pct_(a.get('other_cpu_share'))} |")
        lines += ["", "CPU ms per request: user + system time of the server's process tree during the measured "
                  "window, divided by the requests answered (less sensitive to the load generator's share of the "
                  "cores than requests/s). Errors: every non-200 answer or transport error, summed over rounds. "
                  "Other load: CPU used on the machine by neither the server nor the load generator during the "
                  "window, in % of one core (other people's work on this shared machine).", ""]
        low = min(st["concurrency"])
        lines += [f"Median latency per picture at {low} client(s), ms (ours / anchor):", "",
                  "| endpoint | " + " | ".join(st["samples"]) + " |", "|---|" + "---:|" * len(st["samples"])]
        for r in cmp_["rows"]:
            if r["concurrency"] != low or "ours" not in r or "anchor" not in r:
                continue
            o, a = r["ours"]["p50_ms_by_picture"], r["anchor"]["p50_ms_by_picture"]
            lines.append(f"| {r['endpoint']} | " + " | ".join(f"{fmt(o.get(k), 2)} / {fmt(a.get(k), 2)}"
                                                              for k in st["samples"]) + " |")
        lines.append("")
        lines += ["Faces found per picture (sanity check, one request each):", "",
                  "| endpoint | side | " + " | ".join(st["samples"]) + " |",
                  "|---|---|" + "---:|" * len(st["samples"])]
        for endpoint, sides in cmp_["faces_per_sample"].items():
            for side, fc in sides.items():
                lines.append(f"| {endpoint} | {side} | " + " | ".join(str(fc.get(s, "—")) for s in st["samples"]) + " |")
        lines.append("")
    if soak_:
        lines += [f"## Soak: ours, detect, {soak_['concurrency']} clients, {soak_['seconds']:g} s", "",
                  f"- Date {soak_['environment']['date']}; the repo then at commit {soak_['environment']['commit']} (our binary built "
                  f"{soak_['environment'].get('blazeface_built')}, sha256 {soak_['environment'].get('blazeface_sha256')}…); VmRSS of the "
                  f"server process every {soak_['interval_s']:g} s.",
                  f"- RSS: {soak_['rss_start_mib']:.1f} MiB at start, **{soak_['rss_after_warmup_mib']:.1f} MiB** after "
                  f"{soak_['warmup_s']:g} s warm-up, **{soak_['rss_end_mib']:.1f} MiB** at the end "
                  f"(Δ {soak_['rss_end_mib'] - soak_['rss_after_warmup_mib']:+.1f} MiB; after warm-up min "
                  f"{soak_['rss_min_mib']:.1f}, max {soak_['rss_max_mib']:.1f}; least-squares slope "
                  f"{fmt(soak_['rss_slope_mib_per_hour'], 2)} MiB/hour).",
                  f"- {soak_['requests']} requests, {soak_['rps']:.1f} req/s, p50 {fmt(soak_['p50_ms'])} ms, "
                  f"p99 {fmt(soak_['p99_ms'])} ms, max {fmt(soak_['max_ms'])} ms, errors {soak_['errors']} "
                  f"(503: {soak_['errors_503']}); server exit status {soak_['server_exit']}.", ""]
    goal_list = goals(cmp_["rows"], cmp_["settings"]["concurrency"], soak_) if cmp_ else []
    if not cmp_ and soak_:
        goal_list = [g for g in goals([], [16], soak_) if g["goal"].startswith("soak")]
    if goal_list:
        lines += ["## Goals", "", "| goal | measured | met |", "|---|---|---|"]
        lines += [f"| {g['goal']} | {g['value']} | {'yes' if g['met'] else '**no**'} |" for g in goal_list]
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--blazeface", default=os.path.join(ROOT, ".build", "release", "blazeface"))
    ap.add_argument("--models-dir", default=os.path.join(ROOT, "Models"))
    ap.add_argument("--anchor-python-detect", help="python of the venv with mediapipe 1.2.2, fastapi, uvicorn")
    ap.add_argument("--anchor-python-analyze", help="python of the venv with mediapipe 0.10.21, fastapi, uvicorn")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--duration", type=float, default=20.0, help="measured seconds per run")
    ap.add_argument("--warmup", type=float, default=3.0, help="unmeasured seconds before each run")
    ap.add_argument("--concurrency", type=lambda s: [int(x) for x in s.split(",")], default=[1, 4, 16])
    ap.add_argument("--endpoints", type=lambda s: s.split(","), default=ENDPOINTS)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-queue", type=int, default=64)
    ap.add_argument("--detector", default="short-range", help="our detector (MediaPipe's is short-range)")
    ap.add_argument("--samples", type=lambda s: s.split(","), default=DEFAULT_SAMPLES)
    ap.add_argument("--soak", type=float, default=0.0, help="soak SECONDS instead of the comparison")
    ap.add_argument("--soak-interval", type=float, default=10.0)
    ap.add_argument("--soak-warmup", type=float, default=60.0)
    ap.add_argument("--soak-concurrency", type=int, default=16)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "latest-serve"), help="path without .md/.json")
    args = ap.parse_args()
    for e in args.endpoints:
        if e not in ENDPOINTS:
            ap.error(f"--endpoints: {e} is not one of {ENDPOINTS}")
    if not args.soak and (("detect" in args.endpoints and not args.anchor_python_detect)
                          or ("analyze" in args.endpoints and not args.anchor_python_analyze)):
        ap.error("the comparison needs --anchor-python-detect and --anchor-python-analyze")

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    samples = load_samples(args.samples)
    data = {}
    if os.path.exists(args.out + ".json"):
        with open(args.out + ".json") as f:
            data = json.load(f)
    try:
        if args.soak:
            data["soak"] = soak(args, samples)
        else:
            data["comparison"] = compare(args, samples)
    finally:
        stop_all()
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out + ".json", "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    md = render(data)
    with open(args.out + ".md", "w") as f:
        f.write(md)
    print(md)


if __name__ == "__main__":
    main()
