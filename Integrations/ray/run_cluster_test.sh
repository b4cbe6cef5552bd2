#!/usr/bin/env bash
# The multi-node Ray test (Documentation/Scaling.md): a head and two worker nodes on this machine
# (ray.cluster_utils.Cluster), `python -m blazeface_ray scan` over 2,400 pictures made from Models/samples (JPEG and
# PNG variants, copies, corrupt and non-picture files), every row checked against the binary run directly, then the
# same scan while one worker node is killed midway (twice: without and with a replacement node). Then, unless
# SWEEP=0, the 1- and 2-node rounds again with 1-CPU nodes and 1 thread per actor (the per-core figures).
#
#   Integrations/ray/run_cluster_test.sh            # about 4 minutes on 2 cores
#
# Environment: BLAZEFACE_BINARY (default: blazeface on PATH, else the checkout's .build/release/blazeface),
# BLAZEFACE_MODELS (default: the checkout's Models), VENV (default: Integrations/ray/.venv, made and filled from
# requirements-test.txt when missing), PYTHON (python3.11), COUNT (2400 files), WORK (default: a new temporary
# folder, removed at the end unless KEEP=1), SWEEP (1). Not part of `swift test` or CI: Ray is large.
# Every Ray process started here is stopped on the way out (`ray stop --force` in the exit trap).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
checkout="$(cd "$here/../.." && pwd)"

binary="${BLAZEFACE_BINARY:-$(command -v blazeface || true)}"
[ -n "$binary" ] || binary="$checkout/.build/release/blazeface"
if [ ! -x "$binary" ]; then
  echo "run_cluster_test.sh: no blazeface binary: set BLAZEFACE_BINARY or run" \
       "'swift build -c release --product blazeface' in the checkout" >&2
  exit 2
fi
models="${BLAZEFACE_MODELS:-$checkout/Models}"
if [ ! -f "$models/face_detection_full_range.tflite" ] || [ ! -d "$checkout/Models/samples" ]; then
  echo "run_cluster_test.sh: no models or samples: run Models/fetch.sh (or set BLAZEFACE_MODELS)" >&2
  exit 2
fi

venv="${VENV:-$here/.venv}"
if [ ! -x "$venv/bin/python" ]; then
  "${PYTHON:-python3.11}" -m venv "$venv"
  "$venv/bin/pip" install -q -r "$here/requirements-test.txt"
fi
python="$venv/bin/python"

keep="${KEEP:-0}"
work="${WORK:-}"
if [ -z "$work" ]; then
  work="$(mktemp -d -t blazeface-ray.XXXXXX)"
else
  keep=1
  mkdir -p "$work"
fi

# Ray's session folders (logs, sockets, spilled objects) go under the work folder, and away with it.
export RAY_TMPDIR="$work/ray"
# Every node, driver and worker on 127.0.0.1: Ray otherwise turns a loopback address into the machine's own
# address (as it must for a real cluster); this switch, meant for single-machine use, keeps the test on loopback.
export RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0
mkdir -p "$RAY_TMPDIR"

cleanup() {
  status=$?
  # cluster_utils stops its nodes when cluster_test.py exits; this also catches a run that was interrupted.
  "$venv/bin/ray" stop --force >/dev/null 2>&1 || true
  if [ "$keep" != 1 ]; then rm -rf "$work"; else echo "run_cluster_test.sh: kept $work" >&2; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== pictures ($work)"
"$python" "$here/make_pictures.py" "$checkout/Models/samples" "$work/corpus" --count "${COUNT:-2400}"

echo "== binary: $("$binary" --version), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== 2-CPU nodes, 2 threads per actor: throughput, checks, fault injection"
mkdir -p "$work/two-cpu"
failed=0
"$python" "$here/cluster_test.py" --pictures "$work/corpus" --binary "$binary" --models-dir "$models" \
  --work "$work/two-cpu" --node-cpus 2 --threads 2 > "$work/two-cpu.json" || failed=1
"$python" "$here/summarize.py" "$work/two-cpu.json"

if [ "${SWEEP:-1}" = 1 ]; then
  echo "== 1-CPU nodes, 1 thread per actor: throughput and checks"
  mkdir -p "$work/one-cpu"
  "$python" "$here/cluster_test.py" --pictures "$work/corpus" --binary "$binary" --models-dir "$models" \
    --work "$work/one-cpu" --node-cpus 1 --threads 1 --skip-fault --alone-checks 0 > "$work/one-cpu.json" || failed=1
  "$python" "$here/summarize.py" "$work/one-cpu.json"
fi

left="$(ps -eo pid=,args= | grep -E '[r]aylet|[g]cs_server|blazeface (detect|analyze|landmarks) --files-from' || true)"
if [ -n "$left" ]; then
  echo "run_cluster_test.sh: processes left over:" >&2
  echo "$left" >&2
  exit 1
fi
if [ "$failed" != 0 ]; then
  echo "run_cluster_test.sh: a check failed (see above)" >&2
  exit 1
fi
echo "== done: every check passed, no Ray or blazeface process left"
