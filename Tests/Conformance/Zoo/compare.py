#!/usr/bin/env python3
"""Runs every model of a zoo made by make_zoo.py through Google's LiteRT and through our engine's CLI
(`blazeface infer`) on the same seeded random inputs and compares the outputs.

    python Tests/Conformance/Zoo/compare.py --zoo ZOO_DIR --blazeface PATH/TO/blazeface [--models a,b]
    python Tests/Conformance/Zoo/compare.py --zoo ZOO_DIR --litert-only      # LiteRT half only

For each model: one float32 input per model input, of the input's shape (dynamic dimensions as 1), uniform
in the range the model expects (from manifest.json; for a model not listed there, guessed from its name:
0..1 for MediaPipe's hand/pose/palm models, -1..1 otherwise), seeded by --seed and the model name; LiteRT
with one thread and its default delegate; then `blazeface infer MODEL --input IN.npy ... --output-dir DIR
--quiet`. The error of an output is max|ours - LiteRT| / max(max|LiteRT|, 1e-6) (relative to the output's
scale); a model's error is the worst over its outputs. Status: ok when the error is <= --tolerance (2e-4),
FAIL when larger (or on a shape mismatch or a non-finite value), else the first line of our tool's refusal,
"crash" or "timeout".

Prints a markdown table and writes ZOO_DIR/conformance.md and ZOO_DIR/conformance.json. Exit status 1 when
a model is FAIL, crash or timeout (refusals alone exit 0; add --strict to count them as failures too).
Needs numpy and ai-edge-litert only (no TensorFlow).
"""
import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from ai_edge_litert.interpreter import Interpreter

sys.dont_write_bytecode = True  # no __pycache__ next to the scripts
import tflite_ops  # noqa: E402  (next to this script)

TOLERANCE = 2e-4


def guess_range(name):
    lowered = name.lower()
    if "pose_detection" in lowered:
        return [-1.0, 1.0], "guessed from the name (MediaPipe pose detector: -1..1)"
    if any(word in lowered for word in ("palm", "hand", "pose", "selfie")):
        return [0.0, 1.0], "guessed from the name (MediaPipe model: 0..1)"
    return [-1.0, 1.0], "guessed (default -1..1)"


def load_zoo(zoo):
    """{model key: manifest entry (or a minimal one for a .tflite file not in the manifest)}."""
    manifest = {"models": {}}
    path = os.path.join(zoo, "manifest.json")
    if os.path.exists(path):
        with open(path) as f:
            manifest = json.load(f)
    models = dict(manifest["models"])
    for file in sorted(glob.glob(os.path.join(zoo, "*.tflite"))):
        key = os.path.basename(file)[:-len(".tflite")]
        if key not in models:
            lo_hi, note = guess_range(key)
            models[key] = {"file": os.path.basename(file), "input_range": lo_hi, "input_range_note": note}
    return dict(sorted(models.items()))


def seeded_inputs(key, details, lo, hi, seed):
    digest = hashlib.sha256(("%d:%s" % (seed, key)).encode()).digest()
    rng = np.random.default_rng(int.from_bytes(digest[:8], "little"))
    inputs = []
    for d in details:
        shape = [int(v) if v > 0 else 1 for v in d["shape"]]
        if np.dtype(d["dtype"]) != np.float32:
            raise ValueError("input '%s' is %s, not float32" % (d["name"], np.dtype(d["dtype"]).name))
        inputs.append(rng.uniform(lo, hi, size=shape).astype(np.float32))
    return inputs


def run_litert(path, key, lo, hi, seed, content=None):
    """(inputs, [(output name, values)], seconds); content: run these model bytes instead of path's."""
    if content is not None:
        it = Interpreter(model_content=content, num_threads=1)
    else:
        it = Interpreter(model_path=path, num_threads=1)
    details = it.get_input_details()
    for d in details:  # dynamic dimensions: run with 1
        if any(v < 0 for v in d["shape_signature"]) and any(v <= 0 for v in d["shape"]):
            it.resize_tensor_input(d["index"], [int(v) if v > 0 else 1 for v in d["shape"]])
    it.allocate_tensors()
    details = it.get_input_details()
    inputs = seeded_inputs(key, details, lo, hi, seed)
    for d, x in zip(details, inputs):
        it.set_tensor(d["index"], x)
    start = time.time()
    it.invoke()
    seconds = time.time() - start
    outputs = [(d["name"], it.get_tensor(d["index"]).copy()) for d in it.get_output_details()]
    return inputs, outputs, seconds


def first_line(text):
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line[len("error: "):] if line.startswith("error: ") else line
    return ""


def run_ours(blazeface, path, inputs, workdir, timeout, threads):
    """(outputs or None, status or None, seconds, stderr's first line)."""
    args = [blazeface, "infer", path]
    for k, x in enumerate(inputs):
        file = os.path.join(workdir, "input_%d.npy" % k)
        np.save(file, x)
        args += ["--input", file]
    out_dir = os.path.join(workdir, "out")
    args += ["--output-dir", out_dir, "--threads", str(threads), "--quiet"]
    start = time.time()
    try:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout (%d s)" % timeout, time.time() - start, ""
    seconds = time.time() - start
    message = first_line(proc.stderr)
    if proc.returncode < 0:
        return None, "crash (signal %d)%s" % (-proc.returncode, ": " + message if message else ""), seconds, message
    if proc.returncode != 0:
        # Our messages start with the model path; the table needs only what follows it.
        for prefix in (path + ": ", "'%s': " % path):
            if message.startswith(prefix):
                message = message[len(prefix):]
        return None, "refused: " + (message or "exit status %d" % proc.returncode), seconds, message
    outputs = []
    k = 0
    while os.path.exists(os.path.join(out_dir, "output_%d.npy" % k)):
        outputs.append(np.load(os.path.join(out_dir, "output_%d.npy" % k)))
        k += 1
    return outputs, None, seconds, message


def compare_outputs(ours, theirs):
    """(worst error, per-output list, problem or None)."""
    per_output = []
    worst = 0.0
    problem = None
    if len(ours) != len(theirs):
        problem = "%d outputs, LiteRT has %d" % (len(ours), len(theirs))
    for k, ((name, want), got) in enumerate(zip(theirs, ours)):
        want64 = np.asarray(want, np.float64)
        got64 = np.asarray(got, np.float64)
        row = {"index": k, "name": name, "shape": list(want.shape), "litert_max_abs": float(np.abs(want64).max())
               if want64.size else 0.0}
        if got64.shape != want64.shape:
            if got64.size == want64.size:
                row["note"] = "our shape %s, LiteRT %s (compared flat)" % (list(got64.shape), list(want64.shape))
                got64 = got64.reshape(want64.shape)
            else:
                row["error"] = float("inf")
                row["note"] = "shape mismatch: ours %s, LiteRT %s" % (list(got64.shape), list(want64.shape))
                problem = problem or row["note"]
                per_output.append(row)
                worst = float("inf")
                continue
        if not np.isfinite(got64).all() and np.isfinite(want64).all():
            row["error"] = float("inf")
            row["note"] = "non-finite values in our output"
            problem = problem or "output %d: %s" % (k, row["note"])
        else:
            scale = max(row["litert_max_abs"], 1e-6)
            mask = np.isfinite(want64)
            diff = np.abs(got64 - want64)[mask] if want64.size else np.zeros(0)
            row["max_abs_diff"] = float(diff.max()) if diff.size else 0.0
            row["error"] = row["max_abs_diff"] / scale
        worst = max(worst, row["error"])
        per_output.append(row)
    return worst, per_output, problem


def finite(value):
    """value with every non-finite float written as a string, so that the JSON is strict."""
    if isinstance(value, float) and not np.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def hybrid_note(path, key, lo, hi, seed, ours, row):
    """For a model with hybrid operators (int8 weights read directly by float operators), LiteRT quantizes
    the activations at run time, so an engine computing in float with dequantized weights differs from it
    by ~1e-1. Compares ours also with LiteRT on a copy whose weights are dequantized to float32 and returns
    a note for the status ("" for other models)."""
    content = tflite_ops.dequantized_copy(path)
    if content is None:
        return ""
    _, reference, _ = run_litert(path, key, lo, hi, seed, content=content)
    error, _, problem = compare_outputs(ours, reference)
    row["dequantized_weights_rel_error"] = error
    if problem:
        return " (hybrid int8 weights; vs a dequantized-float copy: %s)" % problem
    return " (hybrid int8 weights, which LiteRT runs with quantized activations; vs LiteRT on a copy with " \
           "the weights dequantized to float32: %.2e)" % error


def fmt_range(lo_hi):
    return "%g..%g" % tuple(lo_hi)


def markdown(rows, tolerance, blazeface):
    lines = ["| model | operators | input range | worst rel. error | status |",
             "|---|---:|---|---:|---|"]
    for r in rows:
        err = r.get("worst_rel_error")
        err_text = "–" if err is None else ("inf" if err == float("inf") else "%.2e" % err)
        status = r["status"].replace("|", "\\|")
        lines.append("| %s | %s | %s | %s | %s |" % (r["model"], r["operator_count"], fmt_range(r["input_range"]),
                                                    err_text, status))
    kinds = ("ok", "FAIL", "refused", "crash", "timeout", "LiteRT error", "LiteRT only")
    counts = {}
    for r in rows:
        word = next((w for w in kinds if r["status"].startswith(w)), "other")
        counts[word] = counts.get(word, 0) + 1
    summary = ", ".join("%d %s" % (counts[w], w) for w in kinds + ("other",) if w in counts)
    lines.append("")
    lines.append("%d models: %s. Tolerance %g (max|ours - LiteRT| / max|LiteRT|)%s." % (
        len(rows), summary, tolerance, "" if blazeface else "; LiteRT only, our engine not run"))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--zoo", required=True, help="directory written by make_zoo.py")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--blazeface", help="path of the blazeface executable")
    group.add_argument("--litert-only", action="store_true", help="run LiteRT only (checks the LiteRT half)")
    parser.add_argument("--models", help="comma-separated model names (file names without .tflite)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tolerance", type=float, default=TOLERANCE)
    parser.add_argument("--timeout", type=int, default=900, help="seconds per run of our tool (default 900)")
    parser.add_argument("--threads", type=int, default=1, help="--threads for our tool (default 1)")
    parser.add_argument("--strict", action="store_true", help="exit 1 on refusals too")
    args = parser.parse_args()

    zoo = os.path.abspath(args.zoo)
    models = load_zoo(zoo)
    if args.models:
        wanted = [m.strip() for m in args.models.split(",") if m.strip()]
        missing = [m for m in wanted if m not in models]
        if missing:
            parser.error("not in the zoo: %s (have: %s)" % (", ".join(missing), ", ".join(models)))
        models = {m: models[m] for m in wanted}
    blazeface = os.path.abspath(args.blazeface) if args.blazeface else None
    if blazeface and not os.access(blazeface, os.X_OK):
        parser.error("%s is not an executable file" % args.blazeface)

    rows = []
    for key, entry in models.items():
        path = os.path.join(zoo, entry["file"])
        lo, hi = entry["input_range"]
        ops = entry.get("operators") or sorted(tflite_ops.operator_counts(path))
        row = {"model": key, "file": entry["file"], "operator_count": len(ops), "operators": ops,
               "input_range": [lo, hi], "input_range_note": entry.get("input_range_note", ""),
               "worst_rel_error": None}
        print("%-34s" % key, end=" ", flush=True)
        try:
            inputs, theirs, row["litert_seconds"] = run_litert(path, key, lo, hi, args.seed)
        except Exception as error:  # noqa: BLE001 -- LiteRT refusing a zoo model is worth a row too
            row["status"] = "LiteRT error: " + first_line(str(error))
            print(row["status"])
            rows.append(row)
            continue
        row["inputs"] = [list(x.shape) for x in inputs]
        row["litert_outputs"] = [{"name": n, "shape": list(y.shape), "std": float(np.std(y)),
                                  "max_abs": float(np.abs(y).max()) if y.size else 0.0} for n, y in theirs]
        if not blazeface:
            row["status"] = "LiteRT only"
            print("LiteRT %.3f s; outputs %s" % (row["litert_seconds"], ", ".join(
                "%s std %.3g" % (o["shape"], o["std"]) for o in row["litert_outputs"])))
            rows.append(row)
            continue
        with tempfile.TemporaryDirectory(prefix="zoo-compare-") as workdir:
            ours, status, row["ours_seconds"], _ = run_ours(blazeface, path, inputs, workdir, args.timeout,
                                                             args.threads)
            if ours is not None:
                worst, per_output, problem = compare_outputs(ours, theirs)
                row["worst_rel_error"] = worst
                row["outputs"] = per_output
                if problem:
                    status = "FAIL: " + problem
                else:
                    status = "ok" if worst <= args.tolerance else "FAIL"
                    if worst > args.tolerance:
                        status += hybrid_note(path, key, lo, hi, args.seed, ours, row)
        row["status"] = status
        print("%s%s  (ours %.1f s, LiteRT %.3f s)" % (
            status, "" if row["worst_rel_error"] is None else "  worst %.3g" % row["worst_rel_error"],
            row["ours_seconds"], row["litert_seconds"]))
        rows.append(row)

    table = markdown(rows, args.tolerance, blazeface)
    print()
    print(table, end="")
    with open(os.path.join(zoo, "conformance.md"), "w") as f:
        f.write("# Conformance: blazeface infer vs LiteRT\n\n" + table)
    report = {"tolerance": args.tolerance, "seed": args.seed, "litert_only": not blazeface,
              "blazeface": os.path.basename(blazeface) if blazeface else None, "models": rows}
    with open(os.path.join(zoo, "conformance.json"), "w") as f:
        json.dump(finite(report), f, indent=1)
        f.write("\n")
    bad = [r for r in rows if r["status"].startswith(("FAIL", "crash", "timeout", "LiteRT error"))
           or (args.strict and r["status"].startswith("refused"))]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
