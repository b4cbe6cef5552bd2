#!/usr/bin/env python3
"""Dumps every tensor of one golden case, for debugging the Swift engine layer by layer.

    .venv-goldens/bin/python Tests/Goldens/intermediates.py MODEL_KEY CASE OUT_DIR [--variant V]

MODEL_KEY: short_range | full_range | full_range_sparse | back | face_landmark | iris_landmark
CASE:      random | image  (the committed input Tests/Goldens/<key>/<case>_input.npy is used, converted to
           the float32 model input exactly as in the goldens)
--variant: builtin (default: LiteRT's optimized kernels, no delegate, so every op output is materialised),
           ref (reference kernels) or xnnpack (the goldens' variant; tensors inside the delegate may not be kept)

Writes OUT_DIR/<tensor index>.npy for every tensor LiteRT can return (inputs, constants, intermediates,
outputs) and OUT_DIR/tensors.json: per tensor index, name, shape, dtype, file, the op that produces it and
whether it is a sparse constant (its .npy then holds only the stored non-zero values, as in the file); plus
the op list (index, op name, input and output tensor indices) in execution order. Nothing here is committed.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

sys.dont_write_bytecode = True  # keep Tests/Goldens free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate as g  # noqa: E402  (shared model table and input conversion)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model_key", choices=list(g.MODELS))
    ap.add_argument("case", choices=["random", "image"])
    ap.add_argument("out_dir")
    ap.add_argument("--variant", choices=["builtin", "ref", "xnnpack"], default="builtin")
    args = ap.parse_args()

    with open(os.path.join(g.HERE, "manifest.json")) as f:
        entry = json.load(f)["models"][args.model_key]
    case = next(c for c in entry["cases"] if c["name"] == args.case)
    case_dir = os.path.join(g.HERE, args.model_key)
    stored = np.load(os.path.join(case_dir, case["input"]))
    x = g.model_input_from_file(stored, case["scale"], case["offset"])

    if args.variant == "xnnpack":
        print("note: with the XNNPACK delegate, tensors inside delegated partitions are not kept "
              "(their .npy files hold stale data); use the default --variant builtin", file=sys.stderr)
    model_path = os.path.join(g.MODELS_DIR, entry["file"])
    it = g.make_interpreter(model_path, args.variant, preserve_all_tensors=True)
    (inp,) = it.get_input_details()
    it.set_tensor(inp["index"], x)
    it.invoke()

    ops = []
    producer = {}
    for op in it._get_ops_details():
        ins = [int(i) for i in op["inputs"]]
        outs = [int(i) for i in op["outputs"]]
        ops.append({"index": int(op["index"]), "op": op["op_name"], "inputs": ins, "outputs": outs})
        for o in outs:
            producer[o] = int(op["index"])

    os.makedirs(args.out_dir, exist_ok=True)
    tensors = []
    written = 0
    for t in sorted(it.get_tensor_details(), key=lambda d: d["index"]):
        idx = int(t["index"])
        rec = {"index": idx, "name": t["name"], "shape": [int(v) for v in t["shape"]],
               "dtype": np.dtype(t["dtype"]).name, "producer_op": producer.get(idx)}
        if t.get("sparsity_parameters"):
            rec["sparse"] = True
        try:
            arr = np.array(it.get_tensor(idx), copy=True)
        except (ValueError, RuntimeError) as e:  # e.g. tensors without data
            rec["file"] = None
            rec["error"] = str(e)
        else:
            rec["file"] = f"{idx}.npy"
            rec["stored_shape"] = [int(v) for v in arr.shape]
            with open(os.path.join(args.out_dir, rec["file"]), "wb") as f:
                np.save(f, arr, allow_pickle=False)
            written += 1
        tensors.append(rec)

    # Cross-check the model outputs against the goldens.
    for k, d in enumerate(it.get_output_details()):
        golden = np.load(os.path.join(case_dir, case["outputs"][k]))
        diff = float(np.max(np.abs(it.get_tensor(d["index"]).astype(np.float64) - golden)))
        print(f"output {k} (tensor {d['index']} {d['name']}): max |{args.variant} - golden| = {diff:.3g}")

    index = {"model": args.model_key, "file": entry["file"], "case": args.case, "variant": args.variant,
             "input_tensor": int(inp["index"]),
             "output_tensors": [int(d["index"]) for d in it.get_output_details()],
             "tensors": tensors, "ops": ops}
    with open(os.path.join(args.out_dir, "tensors.json"), "w") as f:
        json.dump(index, f, indent=1)
        f.write("\n")
    print(f"wrote {written} of {len(tensors)} tensors and tensors.json ({len(ops)} ops) to {args.out_dir}")


if __name__ == "__main__":
    main()
