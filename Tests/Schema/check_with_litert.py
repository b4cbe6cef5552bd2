#!/usr/bin/env python3
"""Optional cross-check: runs the valid models of models/ through Google's
LiteRT interpreter (pip package ai-edge-litert, needs numpy) and compares with
models/expected.json; also checks that the invalid models fail to prepare/run.

    python3 -m venv /tmp/venv-check && /tmp/venv-check/bin/pip install ai-edge-litert==2.3.0
    /tmp/venv-check/bin/python Tests/Schema/check_with_litert.py
"""
import json
import os
import sys

import numpy as np
from ai_edge_litert.interpreter import Interpreter

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")
expected = json.load(open(os.path.join(HERE, "expected.json")))
failures = 0
for name, exp in expected.items():
    if name.startswith("_"):
        continue
    path = os.path.join(HERE, name + ".tflite")
    if "error" in exp:
        try:
            it = Interpreter(model_path=path)
            it.allocate_tensors()
            for d in it.get_input_details():
                it.set_tensor(d["index"], np.zeros(d["shape"], d["dtype"]))
            it.invoke()
            print("%-24s LiteRT accepts it; our engine must still report %s" % (name, exp["error"]))
        except Exception as e:  # noqa: BLE001 -- any refusal is what we want
            print("%-24s LiteRT refuses: %s" % (name, str(e).splitlines()[0][:110]))
        continue
    it = Interpreter(model_path=path)
    it.allocate_tensors()
    by_name = {d["name"]: d for d in it.get_input_details()}
    for inp in exp["inputs"]:
        d = by_name[inp["name"]]
        it.set_tensor(d["index"], np.array(inp["data"], np.float32).reshape(inp["shape"]))
    it.invoke()
    outs = {d["name"]: d for d in it.get_output_details()}
    for out in exp["outputs"]:
        got = it.get_tensor(outs[out["name"]]["index"])
        want = np.array(out["data"], np.float32).reshape(out["shape"])
        err = float(np.max(np.abs(got.astype(np.float64) - want)))
        ok = list(got.shape) == out["shape"] and err <= exp["atol"] + 1e-7
        failures += not ok
        print("%-24s %s max|err| = %g (atol %g)" % (name, "OK  " if ok else "FAIL", err, exp["atol"]))
sys.exit(1 if failures else 0)
