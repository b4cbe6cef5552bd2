#!/usr/bin/env bash
# The Spark RDD.pipe recipe, run for real on a local master (Documentation/Scaling.md): pipe_scan.py over the
# cluster test's 2,400 pictures, every row checked against the binary run directly; then again with one blazeface
# process SIGKILLed midway (Spark retries its partition: every input still exactly once).
#
#   Integrations/spark/run_spark_test.sh        # about 2 minutes on 2 cores; needs Java 17+
#
# Environment: BLAZEFACE_BINARY, BLAZEFACE_MODELS, COUNT, KEEP as for Integrations/ray/run_cluster_test.sh;
# SPARK_VENV (default Integrations/spark/.venv, from requirements.txt), RAY_VENV (Integrations/ray/.venv: Pillow
# and pyarrow make and check the pictures), MASTER (local[2,4]: 2 cores, 4 attempts per task).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
checkout="$(cd "$here/../.." && pwd)"
ray_dir="$checkout/Integrations/ray"

binary="${BLAZEFACE_BINARY:-$(command -v blazeface || true)}"
[ -n "$binary" ] || binary="$checkout/.build/release/blazeface"
[ -x "$binary" ] || { echo "run_spark_test.sh: no blazeface binary: set BLAZEFACE_BINARY" >&2; exit 2; }
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
models="$(cd "${BLAZEFACE_MODELS:-$checkout/Models}" && pwd)"
java -version 2>&1 | grep -qE 'version "(1[7-9]|[2-9][0-9])' || { echo "run_spark_test.sh: needs Java 17+" >&2; exit 2; }

spark_venv="${SPARK_VENV:-$here/.venv}"
ray_venv="${RAY_VENV:-$ray_dir/.venv}"
[ -x "$spark_venv/bin/python" ] || { python3.11 -m venv "$spark_venv"; "$spark_venv/bin/pip" install -q -r "$here/requirements.txt"; }
[ -x "$ray_venv/bin/python" ] || { python3.11 -m venv "$ray_venv"; "$ray_venv/bin/pip" install -q -r "$ray_dir/requirements-test.txt"; }

work="$(mktemp -d -t blazeface-spark.XXXXXX)"
export SPARK_LOCAL_IP=127.0.0.1   # the local master and its executor talk over loopback
watcher=""
cleanup() {
  status=$?
  [ -z "$watcher" ] || kill "$watcher" 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$ray_venv/bin/python" "$ray_dir/make_pictures.py" "$checkout/Models/samples" "$work/corpus" --count "${COUNT:-2400}"
find "$work/corpus/pictures" ! -type d | LC_ALL=C sort > "$work/list.txt"
"$binary" detect --files-from "$work/list.txt" --json-lines --threads 2 --models-dir "$models" > "$work/reference.jsonl"

check() {
  "$ray_venv/bin/python" - "$work" "$1" <<'PY'
import json, os, sys
work, output = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.environ["RAY_DIR"])
from cluster_test import verify
from blazeface_ray.inputs import list_inputs
root = os.path.join(work, "corpus", "pictures")
table = {json.loads(line)["path"]: line.rstrip("\n") for line in open(os.path.join(work, "reference.jsonl"))}
kinds = json.load(open(os.path.join(work, "corpus", "manifest.json")))
result = verify(output, list_inputs([root]), table, kinds, root)
print(json.dumps(result))
sys.exit(1 if result["problem_count"] else 0)
PY
}
export RAY_DIR="$ray_dir"

run() {
  "$spark_venv/bin/python" "$here/pipe_scan.py" --input "$work/corpus/pictures" --output "$1" --binary "$binary" \
    --models-dir "$models" --master "${MASTER:-local[2,4]}" --partitions 8 --threads 1 2> "$1.log"
}

echo "== RDD.pipe, ${MASTER:-local[2,4]}, 8 partitions"
run "$work/plain.parquet"
check "$work/plain.parquet"

echo "== the same, one blazeface process SIGKILLed midway"
(
  sleep 12   # the JVM's start, then a few seconds of work
  for _ in $(seq 1 120); do
    victim="$(ps -eo pid=,args= | grep -F "$binary detect --files-from" | grep -v grep | awk 'NR==1 {print $1}' || true)"
    if [ -n "$victim" ] && kill -9 "$victim" 2>/dev/null; then
      echo "killed blazeface $victim" | tee "$work/killed" >&2
      exit 0
    fi
    sleep 0.5
  done
) &
watcher=$!
run "$work/fault.parquet"
wait "$watcher" || true
watcher=""
[ -f "$work/killed" ] || { echo "run_spark_test.sh: no blazeface process was killed" >&2; exit 1; }
echo "task attempts that failed: $(grep -c 'Lost task' "$work/fault.parquet.log" || true)"
check "$work/fault.parquet"
echo "== done"
