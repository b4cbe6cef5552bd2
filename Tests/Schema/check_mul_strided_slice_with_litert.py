"""Optional cross-check of MUL and STRIDED_SLICE semantics against Google's LiteRT (ai-edge-litert 2.3.0,
numpy): builds one-operator models from JSON with flatc and Tests/Schema/tflite_subset.fbs (in a temporary
directory), runs them with LiteRT and compares with NumPy (MUL bit for bit; slices including masks, negative
strides and offset). The Swift tests (Tests/BlazeRuntimeTests/MulStridedSliceModelTests.swift) expect the
NumPy results for the same specs. Run from anywhere:  python3 Tests/Schema/check_mul_strided_slice_with_litert.py
"""
import json, os, subprocess, tempfile
import numpy as np
from ai_edge_litert.interpreter import Interpreter

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tflite_subset.fbs")
WORK = tempfile.mkdtemp()
def build(op, opt_type, opts, tensors, inputs, outputs, name):
    buffers = [{}]; tobj = []
    for t in tensors:
        o = {"name": t["name"], "shape": t["shape"], "type": t.get("type", "FLOAT32"), "buffer": 0}
        if "bytes" in t:
            o["buffer"] = len(buffers); buffers.append({"data": list(t["bytes"])})
        tobj.append(o)
    gin = [i for i, t in enumerate(tensors) if "bytes" not in t and i not in outputs]
    m = {"version": 3, "operator_codes": [{"deprecated_builtin_code": 0, "version": 1, "builtin_code": op}],
         "subgraphs": [{"tensors": tobj, "inputs": gin, "outputs": outputs, "name": "main",
                        "operators": [{"opcode_index": 0, "inputs": inputs, "outputs": outputs,
                                       "builtin_options_type": opt_type, "builtin_options": opts}]}],
         "buffers": buffers}
    source = os.path.join(WORK, name + '.json')
    open(source, 'w').write(json.dumps(m))
    subprocess.run(['flatc', '-b', '-o', WORK, SCHEMA, source], check=True)
    return os.path.join(WORK, name + '.tflite')
def i32(name, v, shape=None): return {"name": name, "shape": shape or [len(v)], "type": "INT32", "bytes": np.array(v, np.int32).tobytes()}
def run(path, inputs):
    it = Interpreter(model_path=path); it.allocate_tensors()
    for d, x in zip(it.get_input_details(), inputs): it.set_tensor(d['index'], x)
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]['index'])
rng = np.random.default_rng(1)
# MUL
for a, b, act in [([1,6,5,8],[1,1,1,8],"NONE"),([1,1,1,8],[1,6,5,8],"RELU6"),([1,468,3],[1],"NONE"),([2,3,1],[1,4],"RELU_N1_TO_1"),([1,16,16,96],[1,1,1,96],"RELU")]:
    out = list(np.broadcast_shapes(tuple(a), tuple(b)))
    p = build("MUL", "MulOptions", {"fused_activation_function": act},
              [{"name":"a","shape":a},{"name":"b","shape":b},{"name":"p","shape":out}], [0,1],[2], "mul")
    x = (rng.standard_normal(a)*4).astype(np.float32); y = (rng.standard_normal(b)*4).astype(np.float32)
    got = run(p, [x, y])
    lo, hi = {"NONE":(-np.inf,np.inf),"RELU":(0,np.inf),"RELU6":(0,6),"RELU_N1_TO_1":(-1,1)}[act]
    exp = np.minimum(np.maximum(x*y, np.float32(lo)), np.float32(hi)).astype(np.float32)
    print("MUL", a, b, act, "bit-identical to numpy:", np.array_equal(got.view(np.uint32), exp.view(np.uint32)))
# STRIDED_SLICE
x = np.arange(24, dtype=np.float32).reshape(2,3,4)
cases = [
  ("x[:, ::-1, 1:4:2]", [2,3,4], [0,0,1],[0,0,4],[1,-1,2], {"begin_mask":3,"end_mask":3}, x[:, ::-1, 1:4:2]),
  ("x[-1, ..., None, 2]", [2,3,4], [-1,0,0,2],[0,0,0,3],[1,1,1,1], {"shrink_axis_mask":9,"ellipsis_mask":2,"new_axis_mask":4}, x[-1, ..., None, 2]),
  ("offset x[0:1,1:3,0:4]", [2,3,4], [0,1,0],[1,2,4],[1,1,1], {"offset": True}, x[0:1,1:3,0:4]),
  ("x[1, ..., ::-1]", [2,3,4], [1,0,0],[2,0,0],[1,1,-1], {"begin_mask":4,"end_mask":4,"ellipsis_mask":2,"shrink_axis_mask":1}, x[1, ..., ::-1]),
  ("x[None, ..., None]", [2,3,4], [0,0,0],[0,0,0],[1,1,1], {"ellipsis_mask":2,"new_axis_mask":7}, x[None, ..., None]),
  ("x[:, None, 1:2]", [2,3,4], [0,0,1],[0,0,2],[1,1,1], {"begin_mask":1,"end_mask":1,"new_axis_mask":2}, x[:, None, 1:2]),
  ("x[-100:100, 100:-100:-2]", [2,3,4], [-100,100],[100,-100],[1,-2], {}, x[-100:100, 100:-100:-2]),
  ("x[1:]", [2,3,4], [1],[3],[1], {}, x[1:]),
  ("x[-1, 1:]", [2,3,4], [-1,1],[0,3],[1,1], {"shrink_axis_mask":1}, x[-1, 1:]),
]
for name, shape, b, e, s, opts, exp in cases:
    p = build("STRIDED_SLICE", "StridedSliceOptions", opts,
              [{"name":"x","shape":shape}, i32("begin",b), i32("end",e), i32("strides",s), {"name":"y","shape":list(exp.shape)}],
              [0,1,2,3],[4],"slice")
    try:
        got = run(p, [x])
        print("SLICE", name, "LiteRT shape", got.shape, "numpy", exp.shape, "equal:", got.shape == exp.shape and np.array_equal(got, exp))
    except Exception as ex:
        print("SLICE", name, "LiteRT error", str(ex)[:200])
