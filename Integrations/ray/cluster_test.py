"""The multi-node test: a Ray head and two worker nodes on this machine (ray.cluster_utils.Cluster), `scan` over the
pictures of make_pictures.py, every row checked against the binary run directly, then a node killed midway.

    python cluster_test.py --pictures DIR --binary BLAZEFACE --models-dir MODELS --work WORK_DIR

DIR holds pictures/ and manifest.json (make_pictures.py). Phases:
  reference  the binary alone, one --files-from run over every file (and a sample of files run one by one with
             `detect --json FILE`, to show that the stream's entries are the single-file ones)
  1-node     head (no CPUs) + node A: scan with 1 actor
  2-nodes    + node B: scan with 2 actors (one per node)
  fault      the same scan; once it has run for a share (--kill-at) of the 2-node time, every process of node B
             (raylet, workers, their blazeface co-processes) gets SIGKILL; the job ends on node A alone
  fault_replaced   a new second node joins, the same scan, the second node killed the same way, and a
             replacement node joins --replace-after seconds later (as an autoscaler or a supervisor would do)
Each scan's output is checked: every input exactly once, faces identical to the reference as JSON text, errors
identical, corrupt and non-picture files as error rows. Prints one JSON object of figures at the end; exit 1 on any
failed check.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

import pyarrow.dataset as pads

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from blazeface_ray.inputs import list_inputs   # noqa: E402

ERROR_KINDS = ("corrupt", "not-image")


def log(message: str) -> None:
    print(f"[cluster-test {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def load_average() -> float:
    return os.getloadavg()[0]


# ---- the reference: the binary alone --------------------------------------------------------------------------

def reference(binary: str, models: str, paths: list, threads: int) -> tuple:
    """{path: raw JSON line} from one `detect --files-from - --json-lines` run, its pictures per second, and the
    CPU time it took per picture (user + system: what a core must give each picture, whatever else runs)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    result = subprocess.run([binary, "detect", "--files-from", "-", "--json-lines", "--threads", str(threads),
                             "--models-dir", models], input="".join(p + "\n" for p in paths).encode(),
                            capture_output=True, check=True)
    seconds = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = result.stdout.decode().splitlines()
    assert len(lines) == len(paths), f"the reference run answered {len(lines)} lines for {len(paths)} paths"
    table = {}
    for path, line in zip(paths, lines):
        assert json.loads(line)["path"] == path
        table[path] = line
    return table, len(paths) / seconds, cpu / len(paths)


def check_alone(binary: str, models: str, table: dict, count: int) -> int:
    """`detect --json FILE` on `count` files chosen at random gives the stream's entry for each."""
    chosen = random.Random(1).sample(sorted(table), count)
    for path in chosen:
        result = subprocess.run([binary, "detect", "--json", "--models-dir", models, "--", path],
                                capture_output=True)
        (entry,) = json.loads(result.stdout)["images"]
        assert entry == json.loads(table[path]), f"{path}: detect --json differs from the stream's line"
    return len(chosen)


def raw_faces(line: str):
    """The faces array of a reference line, as the binary's own text (keys are sorted, so faces comes first)."""
    if not line.startswith('{"faces":'):
        return None
    return line[len('{"faces":'):line.rfind(',"height":')]


# ---- checking one scan's output -------------------------------------------------------------------------------

def verify(output: str, paths: list, table: dict, kinds: dict, root: str) -> dict:
    rows = pads.dataset(output, format="parquet").to_table().to_pylist()
    counts = collections.Counter(row["path"] for row in rows)
    problems = []
    duplicated = [path for path, count in counts.items() if count > 1]
    missing = sorted(set(paths) - set(counts))
    unexpected = sorted(set(counts) - set(paths))
    if duplicated:
        problems.append(f"{len(duplicated)} paths more than once, e.g. {duplicated[:3]}")
    if missing:
        problems.append(f"{len(missing)} paths missing, e.g. {missing[:3]}")
    if unexpected:
        problems.append(f"{len(unexpected)} unexpected paths, e.g. {unexpected[:3]}")
    identical_text = errors = 0
    for row in rows:
        line = table.get(row["path"])
        if line is None:
            continue
        expected = json.loads(line)
        kind = kinds.get(os.path.relpath(row["path"], root))
        if "error" in expected:
            errors += 1
            if row["error"] != expected["error"] or row["faces"] is not None:
                problems.append(f"{row['path']}: error {row['error']!r}, expected {expected['error']!r}")
        else:
            if row["error"] is not None:
                problems.append(f"{row['path']}: error {row['error']!r}, expected faces")
                continue
            if (row["width"], row["height"]) != (expected["width"], expected["height"]):
                problems.append(f"{row['path']}: size {row['width']}x{row['height']}")
            if json.loads(row["faces"]) != expected["faces"]:
                problems.append(f"{row['path']}: faces differ in value")
            elif row["faces"] == raw_faces(line):
                identical_text += 1
            if row["face_count"] != len(expected["faces"]):
                problems.append(f"{row['path']}: face_count {row['face_count']}")
        if kind in ERROR_KINDS and not row["error"]:
            problems.append(f"{row['path']}: a {kind} file without an error")
    faces = sum(row["face_count"] or 0 for row in rows)
    return {"rows": len(rows), "distinct_paths": len(counts), "errors": sum(1 for r in rows if r["error"]),
            "reference_errors": errors, "faces": faces, "faces_text_identical": identical_text,
            "problems": problems[:20], "problem_count": len(problems)}


# ---- the cluster and the scans --------------------------------------------------------------------------------

def descendants(pid: int) -> list:
    """`pid` and every process below it, from /proc."""
    children = collections.defaultdict(list)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    fields = file.read().rsplit(")", 1)[1].split()
                children[int(fields[1])].append(int(entry))
            except (OSError, IndexError):
                pass
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def command_name(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read().split(b"\0")[0].decode(errors="replace")
    except OSError:
        return "?"


def kill_node(cluster, node) -> dict:
    """SIGKILL to the node's raylet and everything below it (workers, their blazeface co-processes) at once."""
    raylet = node.all_processes["raylet"][0].process.pid
    victims = descendants(raylet)
    names = collections.Counter(os.path.basename(command_name(pid)) for pid in victims)
    for pid in victims:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    cluster.remove_node(node, allow_graceful=False)   # reaps what is left of the node and forgets it
    return {"killed": len(victims), "blazeface_killed": names.get("blazeface", 0), "processes": dict(names)}


def ray_events(logs_dir: str, pid: int) -> dict:
    """What the scan's driver saw of failures, from its core log: actor tasks that failed because their actor was
    unavailable and were resubmitted, and actors that Ray restarted."""
    import glob
    import re

    resubmitted, restarted = set(), set()
    for path in glob.glob(os.path.join(logs_dir, f"python-core-driver-*_{pid}.log")):
        with open(path, errors="replace") as file:
            for line in file:
                if "failed with error ACTOR_UNAVAILABLE" in line:
                    match = re.search(r"Task attempt ([0-9a-f]+)", line)
                    resubmitted.add(match.group(1) if match else line)
                elif "state: RESTARTING" in line:
                    match = re.search(r"actor_id=([0-9a-f]+)", line)
                    restarted.add(match.group(1) if match else line)
    return {"tasks_resubmitted": len(resubmitted), "actors_restarted": len(restarted)}


class Scan:
    """`python -m blazeface_ray scan` against the cluster, in the background; `started` is set when its job starts
    (after the preflight on every node)."""

    def __init__(self, address: str, pictures: str, output: str, options, concurrency: int, logs_dir: str):
        command = [sys.executable, "-m", "blazeface_ray", "scan", "--input", pictures, "--output", output,
                   "--overwrite", "--address", address, "--binary", options.binary,
                   "--models-dir", options.models_dir, "--concurrency", str(concurrency),
                   "--threads", str(options.threads), "--batch-size", str(options.batch_size)]
        self.timeout = options.scan_timeout
        self.logs_dir = logs_dir
        self.log_path = os.path.splitext(output)[0] + ".log"
        self.started = threading.Event()
        self.begun = time.monotonic()
        self.process = subprocess.Popen(command, cwd=HERE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        self.stderr_lines = []
        self.reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.reader.start()

    def _read_stderr(self) -> None:
        for line in self.process.stderr:
            self.stderr_lines.append(line)
            if "node(s) checked" in line:
                self.started.set()

    def finish(self) -> dict:
        try:
            self.process.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"the scan did not finish within {self.timeout} s")
        stdout = self.process.stdout.read()
        self.reader.join(timeout=5)
        with open(self.log_path, "w") as file:
            file.write("".join(self.stderr_lines))
        if self.process.returncode != 0:
            sys.stderr.write("".join(self.stderr_lines[-60:]))
            raise AssertionError(f"the scan failed with status {self.process.returncode} (log: {self.log_path})")
        summary = json.loads(stdout.strip().splitlines()[-1])
        summary["wall_seconds"] = round(time.monotonic() - self.begun, 2)
        summary["ray"] = ray_events(self.logs_dir, self.process.pid)
        return summary


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pictures", required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--models-dir", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--node-cpus", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--kill-at", type=float, default=0.4, help="share of the 2-node job time")
    parser.add_argument("--replace-after", type=float, default=3.0,
                        help="seconds after the kill before a replacement node joins (second fault round)")
    parser.add_argument("--skip-fault", action="store_true", help="only the 1- and 2-node throughput rounds")
    parser.add_argument("--alone-checks", type=int, default=40)
    parser.add_argument("--scan-timeout", type=float, default=900)
    options = parser.parse_args()
    options.binary = os.path.abspath(options.binary)
    options.models_dir = os.path.abspath(options.models_dir)

    root = os.path.join(options.pictures, "pictures")
    with open(os.path.join(options.pictures, "manifest.json")) as file:
        kinds = json.load(file)
    paths = list_inputs([root])
    assert len(paths) == len(kinds), f"{len(paths)} files listed, {len(kinds)} in the manifest"
    figures = {"inputs": len(paths), "kinds": dict(collections.Counter(kinds.values())),
               "cores": os.cpu_count(), "load_average_at_start": load_average()}

    log(f"reference: blazeface detect --files-from over {len(paths)} files")
    table, direct, cpu = reference(options.binary, options.models_dir, paths, options.threads)
    figures["direct_pictures_per_second"] = round(direct, 1)
    figures["direct_cpu_ms_per_picture"] = round(cpu * 1000, 2)
    figures["alone_checked"] = check_alone(options.binary, options.models_dir, table, options.alone_checks)
    log(f"reference: {direct:.1f} pictures/s; {figures['alone_checked']} files equal `detect --json FILE` alone")

    from ray.cluster_utils import Cluster

    failures = []
    # Every node on the loopback address: the test's traffic stays on 127.0.0.1.
    loopback = "127.0.0.1"
    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 0, "node_ip_address": loopback,
        "_system_config": {"health_check_period_ms": 1000, "health_check_failure_threshold": 3}})
    try:
        cluster.add_node(num_cpus=options.node_cpus, node_ip_address=loopback)
        cluster.wait_for_nodes()
        address = cluster.address
        log(f"cluster at {address}: head (0 CPUs) + node A ({options.node_cpus} CPUs)")

        def run(name: str, concurrency: int, during=None) -> None:
            output = os.path.join(options.work, f"{name}.parquet")
            job = Scan(address, root, output, options, concurrency, cluster.head_node.get_logs_dir_path())
            if during:
                if not job.started.wait(timeout=options.scan_timeout):
                    raise AssertionError(f"{name}: the scan never started")
                during()
            figures[name] = job.finish()
            figures[name]["check"] = verify(output, paths, table, kinds, root)
            figures[name]["load_average"] = load_average()
            check = figures[name]["check"]
            log(f"{name}: {figures[name]['pictures_per_second']} pictures/s, {check['rows']} rows, "
                f"{check['errors']} errors, {check['faces_text_identical']} face lists identical as text, "
                f"{check['problem_count']} problems")
            if check["problem_count"]:
                failures.append(name)
                for problem in check["problems"]:
                    log(f"  {problem}")

        run("one_node", 1)
        second = cluster.add_node(num_cpus=options.node_cpus, node_ip_address=loopback)
        cluster.wait_for_nodes()
        log(f"node B joined ({options.node_cpus} CPUs)")
        run("two_nodes", 2)
        if not options.skip_fault:
            kill_after = options.kill_at * figures["two_nodes"]["seconds"]
            for name, replace in (("fault", False), ("fault_replaced", True)):
                fault = {}

                def inject():
                    nonlocal second
                    begun = time.monotonic()
                    time.sleep(kill_after)
                    raylet = second.all_processes["raylet"][0].process.pid
                    for _ in range(300):   # until the node's actor has its co-process (at most 30 s more)
                        if any(command_name(pid).endswith("blazeface") for pid in descendants(raylet)):
                            break
                        time.sleep(0.1)
                    fault.update(kill_node(cluster, second))
                    fault["after_seconds"] = round(time.monotonic() - begun, 2)
                    log(f"{name}: killed the second worker node {fault['after_seconds']} s into the job: "
                        f"{fault['processes']}")
                    if replace:
                        time.sleep(options.replace_after)
                        second = cluster.add_node(num_cpus=options.node_cpus, node_ip_address=loopback)
                        fault["replacement_joined_after_seconds"] = options.replace_after
                        log(f"{name}: a replacement node joined")

                run(name, 2, during=inject)
                figures[name]["injected"] = fault
                if not fault.get("blazeface_killed"):
                    failures.append(f"{name}: no blazeface co-process was running on the node when it was killed")
                if not replace:
                    second = cluster.add_node(num_cpus=options.node_cpus, node_ip_address=loopback)   # two nodes again for the next round
                    cluster.wait_for_nodes()
    finally:
        cluster.shutdown()
    figures["failures"] = failures
    print(json.dumps(figures, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
