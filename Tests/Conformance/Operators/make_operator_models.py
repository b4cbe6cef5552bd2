#!/usr/bin/env python3
"""Writes the operator conformance models of Tests/Conformance/Operators/ and their LiteRT goldens.

For every case this script builds a small TFLite model as FlatBuffers JSON (schema
Tests/Schema/tflite_subset.fbs) in models/<case>.json, compiles it with `flatc -b` in a temporary
directory, runs it with Google's LiteRT interpreter on seeded random float32 inputs and writes all
inputs and golden outputs to expected.json (one file for all cases). The .tflite binaries are not
kept: the Swift tests build them from the JSON with flatc.

Golden = LiteRT's reference kernels (OpResolverType.BUILTIN_REF, one thread). The same model is also
run with the default resolver (optimized kernels + the XNNPACK delegate LiteRT applies by default)
and with a float64 NumPy model of the operator; the largest differences are recorded next to each
case ("litert_default_max_abs_diff", "numpy_max_abs_diff") and printed.

Needs: Python 3 with numpy and ai-edge-litert (pinned in requirements.txt next to this file:
numpy 2.4.6, ai-edge-litert 2.3.0, e.g. in a venv: `python -m venv .venv-litert &&
.venv-litert/bin/pip install -r Tests/Conformance/Operators/requirements.txt`), and `flatc` on PATH
(developed with Debian's flatbuffers-compiler 2.0.8).

    python Tests/Conformance/Operators/make_operator_models.py           # all cases
    python Tests/Conformance/Operators/make_operator_models.py softmax   # only cases whose name
                                                                         # contains "softmax"
                                                                         # (expected.json untouched)

Deterministic: each case's random generator is seeded with the CRC-32 of its name, so adding or
reordering cases does not change the others. Every graph input and output is FLOAT32; INT32 and INT8
tensors appear only as constants or intermediates.
"""

import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "models")
EXPECTED = os.path.join(HERE, "expected.json")
SCHEMA = os.path.normpath(os.path.join(HERE, "..", "..", "Schema", "tflite_subset.fbs"))


def builtin_codes():
    """BuiltinOperator name -> code, read from the schema's enum."""
    text = open(SCHEMA).read()
    body = re.search(r"enum BuiltinOperator : int32 \{(.*?)\}", text, re.S).group(1)
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"(\w+) = (\d+)", body)}


CODES = builtin_codes()
TYPES = {np.dtype(np.float32): "FLOAT32", np.dtype(np.float64): "FLOAT32",
         np.dtype(np.int32): "INT32", np.dtype(np.int8): "INT8"}

# ---------------------------------------------------------------- model builder


class Model:
    """One subgraph. Every tensor carries a NumPy value (the float64 NumPy model of the graph), so
    an operator's output shapes and types follow from its reference function."""

    def __init__(self, name, description):
        self.name, self.description = name, description
        self.rng = np.random.default_rng(zlib.crc32(name.encode()))
        self.tensors, self.values, self.buffers = [], [], [{}]
        self.opcodes, self.operators, self.op_names = [], [], []
        self.inputs, self.outputs, self.feeds = [], [], []
        self.notes = {}

    def _tensor(self, name, value, ttype, buffer=0, quantization=None, signature=None):
        t = {"shape": list(np.shape(value)), "type": ttype, "buffer": buffer, "name": name}
        if quantization is not None:
            t["quantization"] = quantization
        if signature is not None:
            t["shape_signature"] = list(signature)
        self.tensors.append(t)
        self.values.append(value)
        return len(self.tensors) - 1

    def input(self, name, shape, lo=-2.0, hi=2.0, data=None, signature=None):
        """A FLOAT32 graph input, uniform in [lo, hi) unless data is given."""
        x = (np.asarray(data, np.float32) if data is not None
             else self.rng.uniform(lo, hi, shape).astype(np.float32))
        i = self._tensor(name, x, "FLOAT32", signature=signature)
        self.inputs.append(i)
        self.feeds.append(x)
        return i

    def const(self, name, value, quantization=None, value_for_ref=None):
        """A constant (buffer > 0). value: a NumPy array whose dtype gives the tensor type."""
        value = np.asarray(value)
        self.buffers.append({"data": list(value.astype(value.dtype.newbyteorder("<")).tobytes())})
        ref = value if value_for_ref is None else value_for_ref
        return self._tensor(name, ref, TYPES[value.dtype], len(self.buffers) - 1, quantization)

    def weights(self, name, shape, lo=-1.0, hi=1.0):
        return self.const(name, self.rng.uniform(lo, hi, shape).astype(np.float32))

    def i32(self, name, values, shape=None):
        a = np.asarray(values, np.int32)
        return self.const(name, a.reshape(shape) if shape is not None else a)

    def op(self, opname, inputs, ref, options_type=None, options=None, version=1,
           names=None, signatures=None):
        """Appends an operator; ref(*input values) returns its output value(s). Returns the output
        tensor index (or a list of them when ref returns a list)."""
        keys = [(c["builtin_code"], c["version"]) for c in self.opcodes]
        if (opname, version) not in keys:
            # As the converter writes it: the 8-bit field saturates at 127 (PLACEHOLDER_FOR_GREATER_OP_CODES).
            self.opcodes.append({"deprecated_builtin_code": min(CODES[opname], 127),
                                 "version": version, "builtin_code": opname})
            keys.append((opname, version))
        opcode = keys.index((opname, version))
        result = ref(*[None if i < 0 else self.values[i] for i in inputs])
        many = isinstance(result, list)
        results = result if many else [result]
        outs = []
        for k, r in enumerate(results):
            r = np.asarray(r)
            ttype = TYPES[r.dtype]
            name = names[k] if names else "%s_%d" % (opname.lower(), len(self.operators)) + \
                ("_%d" % k if many else "")
            sig = signatures[k] if signatures else None
            outs.append(self._tensor(name, r, ttype, signature=sig))
        o = {"opcode_index": opcode, "inputs": list(inputs), "outputs": outs}
        if options_type is not None:
            o["builtin_options_type"] = options_type
            o["builtin_options"] = options or {}
        self.operators.append(o)
        self.op_names.append(opname)
        return outs if many else outs[0]

    def output(self, *indices):
        for i in indices:
            assert self.tensors[i]["type"] == "FLOAT32", "graph outputs must be FLOAT32"
            self.outputs.append(i)

    def json(self):
        return {
            "version": 3,
            "operator_codes": self.opcodes,
            "subgraphs": [{
                "tensors": self.tensors,
                "inputs": self.inputs,
                "outputs": self.outputs,
                "operators": self.operators,
                "name": "main",
            }],
            "description": "swift-blazeface operator conformance: %s: %s" % (self.name, self.description),
            "buffers": self.buffers,
        }


# ---------------------------------------------------------------- NumPy reference models
# (float64, from the float32 inputs; used to derive shapes and as a sanity check of LiteRT)

F64 = np.float64
ACT = {"NONE": lambda v: v, "RELU": lambda v: np.maximum(v, 0), "RELU6": lambda v: np.clip(v, 0, 6),
       "RELU_N1_TO_1": lambda v: np.clip(v, -1, 1)}


def fc_ref(act="NONE", keep=False):
    def f(x, w, b):
        y = x.astype(F64).reshape(-1, w.shape[1]) @ w.astype(F64).T
        if b is not None:
            y = y + b
        if keep:
            y = y.reshape(list(x.shape[:-1]) + [w.shape[0]])
        return ACT[act](y)
    return f


def softmax_ref(beta):
    def f(x):
        z = beta * x.astype(F64)
        e = np.exp(z - z.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)
    return f


def strided_slice_ref(x, begin, end, strides, begin_mask=0, end_mask=0, shrink=0):
    index = []
    for d in range(len(begin)):
        if shrink >> d & 1:
            index.append(int(begin[d]))
        else:
            index.append(slice(None if begin_mask >> d & 1 else int(begin[d]),
                               None if end_mask >> d & 1 else int(end[d]), int(strides[d])))
    return np.asarray(x[tuple(index)])


def nearest_index(out_size, in_size, align_corners, half_pixel):
    """TFLite's reference GetNearestNeighbor, in float32 arithmetic."""
    if align_corners and out_size > 1:
        scale = np.float32(in_size - 1) / np.float32(out_size - 1)
    else:
        scale = np.float32(in_size) / np.float32(out_size)
    offset = np.float32(0.5 if half_pixel else 0.0)
    idx = []
    for o in range(out_size):
        v = (np.float32(o) + offset) * scale
        # TfLiteRound rounds half away from zero.
        i = int(math.floor(v + 0.5)) if align_corners else int(math.floor(v))
        i = min(i, in_size - 1)
        if half_pixel:
            i = max(0, i)
        idx.append(i)
    return idx


def resize_nn_ref(align_corners=False, half_pixel=False):
    def f(x, size):
        ys = nearest_index(int(size[0]), x.shape[1], align_corners, half_pixel)
        xs = nearest_index(int(size[1]), x.shape[2], align_corners, half_pixel)
        return x[:, ys][:, :, xs]
    return f


def batch_matmul_ref(adj_x=False, adj_y=False):
    def f(a, b):
        a, b = a.astype(F64), b.astype(F64)
        if adj_x:
            a = np.swapaxes(a, -1, -2)
        if adj_y:
            b = np.swapaxes(b, -1, -2)
        return a @ b
    return f


def reduce_ref(fn, keep):
    def f(x, axes):
        return np.asarray(fn(x.astype(F64), axis=tuple(int(a) for a in axes), keepdims=keep))
    return f


def erf(v):
    return np.vectorize(math.erf)(v)


UNARY = {
    "EXP": (np.exp, (-2.0, 2.0)),
    "LOG": (np.log, (0.05, 4.0)),
    "SQRT": (np.sqrt, (0.0, 4.0)),
    "RSQRT": (lambda v: 1 / np.sqrt(v), (0.05, 4.0)),
    "TANH": (np.tanh, (-3.0, 3.0)),
    "LOGISTIC": (lambda v: 1 / (1 + np.exp(-v)), (-6.0, 6.0)),
    "NEG": (np.negative, (-2.0, 2.0)),
    "ABS": (np.abs, (-2.0, 2.0)),
    "RELU6": (lambda v: np.clip(v, 0, 6), (-8.0, 8.0)),
    "RELU_N1_TO_1": (lambda v: np.clip(v, -1, 1), (-2.0, 2.0)),
}

BINARY = {
    "SUB": (np.subtract, "SubOptions", {"fused_activation_function": "NONE"}),
    "DIV": (np.divide, "DivOptions", {"fused_activation_function": "NONE"}),
    "MINIMUM": (np.minimum, "MaximumMinimumOptions", {}),
    "MAXIMUM": (np.maximum, "MaximumMinimumOptions", {}),
    # (a - b) rounded to float32 first, as every float32 kernel computes it
    "SQUARED_DIFFERENCE": (lambda a, b: np.float64(np.float32(a - b)) ** 2, "SquaredDifferenceOptions", {}),
    "ADD": (np.add, "AddOptions", {"fused_activation_function": "NONE"}),
    "MUL": (np.multiply, "MulOptions", {"fused_activation_function": "NONE"}),
}

# Tolerance classes: an absolute bound is derived as  class value * max(1, max |golden|).
EXACT, IEEE, MATH, ACCUM = 0.0, 1e-6, 1e-5, 1e-5

# ---------------------------------------------------------------- cases

CASES = []  # (name, function(Model) -> tolerance class, description)


def case(name, description, tol):
    def register(fn):
        CASES.append((name, description, tol, fn))
        return fn
    return register


def define_cases():
    # ---- FULLY_CONNECTED
    @case("fully_connected_relu", "x[2,8] . W[5,8]^T + b[5], fused RELU", ACCUM)
    def _(m):
        x = m.input("x", [2, 8])
        y = m.op("FULLY_CONNECTED", [x, m.weights("w", [5, 8]), m.weights("b", [5])], fc_ref("RELU"),
                 "FullyConnectedOptions", {"fused_activation_function": "RELU"})
        m.output(y)

    @case("fully_connected_keep_num_dims", "x[2,3,8] -> [2,3,5] (keep_num_dims true)", ACCUM)
    def _(m):
        x = m.input("x", [2, 3, 8])
        y = m.op("FULLY_CONNECTED", [x, m.weights("w", [5, 8]), m.weights("b", [5])],
                 fc_ref(keep=True), "FullyConnectedOptions", {"keep_num_dims": True}, version=5)
        m.output(y)

    @case("fully_connected_flatten", "x[2,3,8] -> [6,5] (keep_num_dims false)", ACCUM)
    def _(m):
        x = m.input("x", [2, 3, 8])
        y = m.op("FULLY_CONNECTED", [x, m.weights("w", [5, 8]), m.weights("b", [5])], fc_ref(),
                 "FullyConnectedOptions", {"keep_num_dims": False})
        m.output(y)

    @case("fully_connected_no_bias", "x[2,8] . W[5,8]^T, bias input -1", ACCUM)
    def _(m):
        x = m.input("x", [2, 8])
        y = m.op("FULLY_CONNECTED", [x, m.weights("w", [5, 8]), -1], fc_ref(),
                 "FullyConnectedOptions", {})
        m.output(y)

    @case("fully_connected_hybrid_int8",
          "x[3,16] float . W[6,16] INT8 per-tensor (zero point 0) + b[6] float: LiteRT's hybrid kernel", None)
    def _(m):
        x = m.input("x", [3, 16])
        w = m.rng.uniform(-1, 1, [6, 16]).astype(np.float32)
        scale = np.float32(np.abs(w).max() / 127)
        q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
        wd = (q.astype(np.float32) * scale).astype(np.float32)
        wi = m.const("w_int8", q, {"scale": [f32(scale)], "zero_point": [0]}, value_for_ref=wd)
        y = m.op("FULLY_CONNECTED", [x, wi, m.weights("b", [6])], fc_ref(),
                 "FullyConnectedOptions", {}, version=3)
        m.output(y)
        m.notes["note"] = (
            "Hybrid kernel: LiteRT's reference and optimized kernels quantize each input row to int8 "
            "symmetrically (scale = max|row| / 127, round half away from zero), take the int32 dot "
            "products with the int8 weights and scale by row scale * weight scale, then add the float "
            "bias. The default resolver (XNNPACK) instead quantizes each row asymmetrically (int8 with a "
            "zero point, 255 levels). Both differ from float arithmetic with the dequantized weights "
            "(dequantized_float_outputs) by up to about 0.02 here; the tolerance covers a float engine.")

    @case("dequantize_fully_connected_per_channel",
          "W[5,8] INT8 per-channel (5 scales, quantized_dimension 0) -> DEQUANTIZE -> FULLY_CONNECTED "
          "with x[2,8], b[5]", ACCUM)
    def _(m):
        x = m.input("x", [2, 8])
        w = m.rng.uniform(-1, 1, [5, 8]).astype(np.float32) * \
            np.array([[0.5], [1], [2], [4], [0.25]], np.float32)
        scale = (np.abs(w).max(axis=1) / 127).astype(np.float32)
        q = np.clip(np.round(w / scale[:, None]), -127, 127).astype(np.int8)
        wd = (q.astype(np.float32) * scale[:, None]).astype(np.float32)
        wi = m.const("w_int8", q, {"scale": [f32(s) for s in scale], "zero_point": [0] * 5,
                                   "quantized_dimension": 0}, value_for_ref=wd)
        wf = m.op("DEQUANTIZE", [wi], lambda v: v.astype(np.float32), version=5, names=["w"])
        y = m.op("FULLY_CONNECTED", [x, wf, m.weights("b", [5])], fc_ref(), "FullyConnectedOptions", {})
        m.output(y)

    # ---- SOFTMAX
    @case("softmax_beta1", "[2,10], beta 1.0", MATH)
    def _(m):
        m.output(m.op("SOFTMAX", [m.input("x", [2, 10], -4, 4)], softmax_ref(1.0), "SoftmaxOptions",
                      {"beta": 1.0}))

    @case("softmax_beta_half_4d", "[1,3,4,5], beta 0.5, over the last axis", MATH)
    def _(m):
        m.output(m.op("SOFTMAX", [m.input("x", [1, 3, 4, 5], -4, 4)], softmax_ref(0.5), "SoftmaxOptions",
                      {"beta": 0.5}))

    # ---- TRANSPOSE
    for name, shape, perm in [("transpose_4d", [2, 3, 4, 5], [0, 3, 1, 2]),
                              ("transpose_nchw_to_nhwc", [1, 3, 8, 8], [0, 2, 3, 1]),
                              ("transpose_2d", [3, 5], [1, 0]),
                              ("transpose_6d", [2, 1, 3, 2, 2, 3], [5, 2, 0, 4, 1, 3]),
                              ("transpose_3d", [4, 6, 5], [2, 0, 1])]:
        @case(name, "%s perm %s (INT32 constant)" % (shape, perm), EXACT)
        def _(m, shape=shape, perm=perm):
            x = m.input("x", shape)
            version = 6 if len(shape) > 5 else 4 if len(shape) > 4 else 1
            m.output(m.op("TRANSPOSE", [x, m.i32("perm", perm)], lambda v, p: np.transpose(v, p),
                          "TransposeOptions", {}, version=version))

    # ---- SLICE / STRIDED_SLICE
    @case("slice_4d", "[2,5,6,3] begin [0,1,2,0] size [2,3,-1,2]", EXACT)
    def _(m):
        x = m.input("x", [2, 5, 6, 3])
        m.output(m.op("SLICE", [x, m.i32("begin", [0, 1, 2, 0]), m.i32("size", [2, 3, -1, 2])],
                      lambda v, b, s: v[0:2, 1:4, 2:, 0:2], "SliceOptions", {}))

    @case("slice_1d", "[10] begin [3] size [4]", EXACT)
    def _(m):
        x = m.input("x", [10])
        m.output(m.op("SLICE", [x, m.i32("begin", [3]), m.i32("size", [4])],
                      lambda v, b, s: v[3:7], "SliceOptions", {}))

    @case("strided_slice_negative_stride_shrink",
          "x[3,4,5][1, ::-1, 4:0:-2]: begin [1,0,4] end [2,0,0] strides [1,-1,-2], begin_mask 2, "
          "end_mask 2, shrink_axis_mask 1 -> [4,2]", EXACT)
    def _(m):
        x = m.input("x", [3, 4, 5])
        b, e, s = [1, 0, 4], [2, 0, 0], [1, -1, -2]
        opts = {"begin_mask": 2, "end_mask": 2, "shrink_axis_mask": 1}
        m.output(m.op("STRIDED_SLICE", [x, m.i32("begin", b), m.i32("end", e), m.i32("strides", s)],
                      lambda v, *_: strided_slice_ref(v, b, e, s, 2, 2, 1), "StridedSliceOptions", opts))

    @case("strided_slice_5d", "x[2,3,4,3,2][0:2, 1:3, 1:4:2, 0:2, 0:2]", EXACT)
    def _(m):
        x = m.input("x", [2, 3, 4, 3, 2])
        b, e, s = [0, 1, 1, 0, 0], [2, 3, 4, 2, 2], [1, 1, 2, 1, 1]
        m.output(m.op("STRIDED_SLICE", [x, m.i32("begin", b), m.i32("end", e), m.i32("strides", s)],
                      lambda v, *_: strided_slice_ref(v, b, e, s), "StridedSliceOptions", {}, version=4))

    # ---- SPLIT / SPLIT_V
    @case("split_axis1", "value [2,6,4], axis 1 (INT32 scalar), num_splits 3 -> 3 x [2,2,4]", EXACT)
    def _(m):
        axis = m.i32("axis", 1, shape=[])
        x = m.input("x", [2, 6, 4])
        m.output(*m.op("SPLIT", [axis, x], lambda a, v: list(np.split(v, 3, axis=1)), "SplitOptions",
                       {"num_splits": 3}))

    @case("split_negative_axis", "value [2,3,4], axis -1, num_splits 2 -> 2 x [2,3,2]", EXACT)
    def _(m):
        axis = m.i32("axis", -1, shape=[])
        x = m.input("x", [2, 3, 4])
        m.output(*m.op("SPLIT", [axis, x], lambda a, v: list(np.split(v, 2, axis=-1)), "SplitOptions",
                       {"num_splits": 2}))

    @case("split_v", "value [2,7,3], size_splits [2,-1,1], axis 1 -> [2,2,3], [2,4,3], [2,1,3]", EXACT)
    def _(m):
        x = m.input("x", [2, 7, 3])
        m.output(*m.op("SPLIT_V", [x, m.i32("size_splits", [2, -1, 1]), m.i32("axis", 1, shape=[])],
                       lambda v, s, a: list(np.split(v, [2, 6], axis=1)), "SplitVOptions",
                       {"num_splits": 3}))

    # ---- PACK / UNPACK
    for name, axis in [("pack_axis0", 0), ("pack_axis2", 2)]:
        @case(name, "three [2,3] inputs, axis %d" % axis, EXACT)
        def _(m, axis=axis):
            xs = [m.input("x%d" % i, [2, 3]) for i in range(3)]
            m.output(m.op("PACK", xs, lambda *v: np.stack(v, axis=axis), "PackOptions",
                          {"values_count": 3, "axis": axis}))

    @case("pack_constant_operand", "[2,3] input, [2,3] float constant, [2,3] input; axis 1", EXACT)
    def _(m):
        a = m.input("a", [2, 3])
        c = m.weights("c", [2, 3], -2, 2)
        b = m.input("b", [2, 3])
        m.output(m.op("PACK", [a, c, b], lambda *v: np.stack(v, axis=1), "PackOptions",
                      {"values_count": 3, "axis": 1}))

    @case("unpack_axis1", "[2,3,4], axis 1, num 3 -> 3 x [2,4]", EXACT)
    def _(m):
        x = m.input("x", [2, 3, 4])
        m.output(*m.op("UNPACK", [x], lambda v: [v[:, i] for i in range(3)], "UnpackOptions",
                       {"num": 3, "axis": 1}))

    # ---- SQUEEZE / EXPAND_DIMS
    @case("squeeze_dims", "[1,3,1,4] squeeze_dims [0,2] -> [3,4]", EXACT)
    def _(m):
        m.output(m.op("SQUEEZE", [m.input("x", [1, 3, 1, 4])], lambda v: np.squeeze(v, (0, 2)),
                      "SqueezeOptions", {"squeeze_dims": [0, 2]}))

    @case("squeeze_all", "[1,2,1,1,3], squeeze_dims empty (every 1) -> [2,3]", EXACT)
    def _(m):
        m.output(m.op("SQUEEZE", [m.input("x", [1, 2, 1, 1, 3])], lambda v: np.squeeze(v),
                      "SqueezeOptions", {"squeeze_dims": []}))

    for name, axis in [("expand_dims_last", -1), ("expand_dims_first", 0)]:
        @case(name, "[3,4], axis INT32 [%d]" % axis, EXACT)
        def _(m, axis=axis):
            x = m.input("x", [3, 4])
            m.output(m.op("EXPAND_DIMS", [x, m.i32("axis", [axis])], lambda v, a: np.expand_dims(v, axis),
                          "ExpandDimsOptions", {}))

    # ---- GATHER
    for name, idx, axis in [("gather_axis1", [2, 0, 3], 1), ("gather_axis0_2d_indices", [[1, 3], [0, 2]], 0),
                            ("gather_negative_axis", [2, 0], -1)]:
        @case(name, "params [4,5,3], INT32 indices %s, axis %d" % (idx, axis), EXACT)
        def _(m, idx=idx, axis=axis):
            p = m.input("params", [4, 5, 3])
            m.output(m.op("GATHER", [p, m.i32("indices", idx)], lambda v, i: np.take(v, i, axis=axis),
                          "GatherOptions", {"axis": axis}))

    # ---- the dynamic-batch Flatten that Keras exports
    @case("dynamic_batch_reshape",
          "x[1,4,4,2] (signature [-1,4,4,2]) -> SHAPE -> STRIDED_SLICE [0:1] shrink -> PACK with 32 -> "
          "RESHAPE -> [1,32] (signature [-1,32]); RESHAPE has no new_shape option", EXACT)
    def _(m):
        x = m.input("x", [1, 4, 4, 2], signature=[-1, 4, 4, 2])
        shape = m.op("SHAPE", [x], lambda v: np.array(v.shape, np.int32), "ShapeOptions",
                     {"out_type": "INT32"}, names=["shape"])
        batch = m.op("STRIDED_SLICE", [shape, m.i32("begin", [0]), m.i32("end", [1]), m.i32("strides", [1])],
                     lambda v, *_: strided_slice_ref(v, [0], [1], [1], shrink=1), "StridedSliceOptions",
                     {"shrink_axis_mask": 1}, names=["batch"])
        packed = m.op("PACK", [batch, m.i32("features", 32, shape=[])],
                      lambda a, b: np.stack([a, b]).astype(np.int32), "PackOptions",
                      {"values_count": 2, "axis": 0}, names=["new_shape"])
        y = m.op("RESHAPE", [x, packed], lambda v, s: v.reshape(s), names=["flat"],
                 signatures=[[-1, 32]])
        m.output(y)

    # ---- Tensordot as from_keras_model writes it: a REDUCE_PROD of a shape, and placeholder shapes
    @case("dynamic_tensordot_reshape",
          "x[1,4,6] (signature [-1,4,6]) -> SHAPE -> GATHER [0,1] -> REDUCE_PROD -> PACK with 6 -> RESHAPE; "
          "the RESHAPE's output declares the placeholder [1,1] (signature [-1,-1]) and holds [4,6]", EXACT)
    def _(m):
        x = m.input("x", [1, 4, 6], signature=[-1, 4, 6])
        shape = m.op("SHAPE", [x], lambda v: np.array(v.shape, np.int32), "ShapeOptions",
                     {"out_type": "INT32"}, names=["shape"])
        lead = m.op("GATHER", [shape, m.i32("lead_axes", [0, 1])], lambda v, i: np.take(v, i, axis=0),
                    "GatherOptions", {"axis": 0}, names=["lead"])
        rows = m.op("REDUCE_PROD", [lead, m.i32("prod_axes", [0])],
                    lambda v, a: np.prod(v, axis=tuple(a)).astype(np.int32), "ReducerOptions",
                    {"keep_dims": False}, names=["rows"])
        packed = m.op("PACK", [rows, m.i32("columns", 6, shape=[])],
                      lambda a, b: np.stack([a, b]).astype(np.int32), "PackOptions",
                      {"values_count": 2, "axis": 0}, names=["matrix_shape"])
        y = m.op("RESHAPE", [x, packed], lambda v, s: v.reshape(s), names=["matrix"], signatures=[[-1, -1]])
        m.tensors[y]["shape"] = [1, 1]
        m.output(y)

    # ---- SiLU as converters write it: LOGISTIC, then the MUL of its input by it (fused into one step)
    @case("silu_logistic_mul", "x[1,6,7,16] -> LOGISTIC -> MUL(x, logistic(x))", MATH)
    def _(m):
        x = m.input("x", [1, 6, 7, 16], lo=-12.0, hi=12.0)
        s = m.op("LOGISTIC", [x], lambda v: (1 / (1 + np.exp(-v.astype(F64)))).astype(np.float32))
        m.output(m.op("MUL", [x, s], lambda a, b: (a * b).astype(np.float32), "MulOptions", {}))

    # ---- a convolution followed by SiLU, as YOLO's blocks end (the SiLU runs in the convolution's epilogue)
    for kernel in (1, 3):
        @case("conv%dx%d_silu" % (kernel, kernel), "x[1,9,10,6] * filter[20,%d,%d,6] + b, SAME -> LOGISTIC -> MUL"
              % (kernel, kernel), ACCUM)
        def _(m, kernel=kernel):
            x = m.input("x", [1, 9, 10, 6])
            def conv(v, w, b):
                pad = kernel // 2
                padded = np.pad(v.astype(F64), ((0, 0), (pad, pad), (pad, pad), (0, 0)))
                out = np.zeros((1, 9, 10, 20))
                for yy in range(9):
                    for xx in range(10):
                        window = padded[0, yy:yy + kernel, xx:xx + kernel, :]
                        out[0, yy, xx, :] = np.tensordot(w, window, axes=([1, 2, 3], [0, 1, 2])) + b
                return out.astype(np.float32)
            c = m.op("CONV_2D", [x, m.weights("w", [20, kernel, kernel, 6]), m.weights("b", [20])], conv,
                     "Conv2DOptions", {"padding": "SAME", "stride_w": 1, "stride_h": 1})
            s_ = m.op("LOGISTIC", [c], lambda v: (1 / (1 + np.exp(-v.astype(F64)))).astype(np.float32))
            m.output(m.op("MUL", [c, s_], lambda a, b: (a * b).astype(np.float32), "MulOptions", {}))

    # ---- CONV_2D with one group per input channel (Keras 3's depthwise layers of ConvNeXt)
    @case("conv_channelwise_groups", "x[1,6,6,4] * filter[8,3,3,1] + b[8], SAME: 4 groups of 1 input channel", ACCUM)
    def _(m):
        x = m.input("x", [1, 6, 6, 4])
        def conv(v, w, b):
            padded = np.pad(v.astype(F64), ((0, 0), (1, 1), (1, 1), (0, 0)))
            out = np.zeros((1, 6, 6, 8))
            for o in range(8):
                for yy in range(6):
                    for xx in range(6):
                        out[0, yy, xx, o] = np.sum(padded[0, yy:yy + 3, xx:xx + 3, o // 2] * w[o, :, :, 0]) + b[o]
            return out.astype(np.float32)
        y = m.op("CONV_2D", [x, m.weights("w", [8, 3, 3, 1]), m.weights("b", [8])], conv, "Conv2DOptions",
                 {"padding": "SAME", "stride_w": 1, "stride_h": 1}, version=6)
        m.output(y)

    # ---- binary elementwise
    def binary_case(op, name, a_shape, b_shape, const=None, act="NONE", lo=-2.0, hi=2.0, tol=EXACT,
                    version=1):
        fn, opt_type, opts = BINARY[op]
        opts = dict(opts)
        if act != "NONE":
            opts["fused_activation_function"] = act
        desc = "%s %s with %s" % (op, a_shape, b_shape) + \
            (", %s a float constant" % const if const else "") + (", fused %s" % act if act != "NONE" else "")

        @case(name, desc, IEEE if op == "DIV" else tol)
        def _(m):
            def operand(label, shape):
                if op == "DIV" and label == "b":  # denominators away from zero: +-[0.5, 2)
                    v = (m.rng.uniform(0.5, 2.0, shape) * m.rng.choice([-1.0, 1.0], shape)).astype(np.float32)
                    return m.const(label, v) if const == label else m.input(label, shape, data=v)
                if const == label:
                    return m.weights(label, shape, lo, hi)
                return m.input(label, shape, lo, hi)
            a, b = operand("a", a_shape), operand("b", b_shape)
            m.output(m.op(op, [a, b], lambda u, v: ACT[act](fn(u.astype(F64), v.astype(F64))),
                          opt_type, opts, version=version))

    for op in ["SUB", "DIV", "MINIMUM", "MAXIMUM", "SQUARED_DIFFERENCE"]:
        lo = op.lower()
        binary_case(op, lo + "_same_shape", [2, 3, 4], [2, 3, 4])
        binary_case(op, lo + "_broadcast_last", [2, 3, 4], [4])
        binary_case(op, lo + "_broadcast_both", [2, 1, 4], [1, 3, 1])
        # the constant is the first operand (DIV: the numerator; the input denominators stay away from 0)
        binary_case(op, lo + "_constant_operand", [3, 4], [2, 3, 4], const="a")
    binary_case("SUB", "sub_relu6", [2, 3, 4], [2, 3, 4], act="RELU6", lo=-8.0, hi=8.0)
    binary_case("ADD", "add_broadcast_5d", [2, 1, 3, 1, 4], [1, 2, 1, 5, 1])
    binary_case("MUL", "mul_broadcast_5d", [2, 1, 3, 1, 4], [1, 2, 1, 5, 1])

    # ---- unary elementwise
    for op, (fn, (lo, hi)) in UNARY.items():
        exact = op in ("NEG", "ABS", "RELU6", "RELU_N1_TO_1")

        @case(op.lower(), "%s on [2,3,5,7], inputs uniform in [%g, %g)" % (op, lo, hi),
              EXACT if exact else IEEE if op == "SQRT" else MATH)
        def _(m, op=op, fn=fn, lo=lo, hi=hi):
            m.output(m.op(op, [m.input("x", [2, 3, 5, 7], lo, hi)], lambda v: fn(v.astype(F64))))

    @case("gelu", "GELU approximate false (erf) on [2,3,5,7]", MATH)
    def _(m):
        m.output(m.op("GELU", [m.input("x", [2, 3, 5, 7], -3, 3)],
                      lambda v: 0.5 * v * (1 + erf(v.astype(F64) / math.sqrt(2))), "GeluOptions",
                      {"approximate": False}))

    @case("gelu_approximate", "GELU approximate true (tanh) on [2,3,5,7]", MATH)
    def _(m):
        def f(v):
            v = v.astype(F64)
            return 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3)))
        m.output(m.op("GELU", [m.input("x", [2, 3, 5, 7], -3, 3)], f, "GeluOptions", {"approximate": True}))

    @case("leaky_relu", "LEAKY_RELU alpha 0.2 on [2,3,5,7]", EXACT)
    def _(m):
        m.output(m.op("LEAKY_RELU", [m.input("x", [2, 3, 5, 7])],
                      lambda v: np.where(v > 0, v, v * np.float32(0.2)).astype(np.float32),
                      "LeakyReluOptions", {"alpha": 0.2}))

    # ---- RESIZE_NEAREST_NEIGHBOR
    for name, size, ac, hp in [("resize_nearest_upscale", [8, 10], False, False),
                               ("resize_nearest_align_corners", [6, 7], True, False),
                               ("resize_nearest_half_pixel_centers", [6, 7], False, True),
                               ("resize_nearest_downscale", [3, 2], False, False)]:
        @case(name, "[1,4,5,3] -> %s, align_corners %s, half_pixel_centers %s" % (size, ac, hp), EXACT)
        def _(m, size=size, ac=ac, hp=hp):
            x = m.input("x", [1, 4, 5, 3])
            m.output(m.op("RESIZE_NEAREST_NEIGHBOR", [x, m.i32("size", size)], resize_nn_ref(ac, hp),
                          "ResizeNearestNeighborOptions", {"align_corners": ac, "half_pixel_centers": hp},
                          version=3 if hp else 1))

    # ---- BATCH_MATMUL
    for name, a_shape, b_shape, ax, ay in [("batch_matmul", [2, 3, 4], [2, 4, 5], False, False),
                                           ("batch_matmul_adj_x", [2, 4, 3], [2, 4, 5], True, False),
                                           ("batch_matmul_adj_y", [2, 3, 4], [2, 5, 4], False, True),
                                           ("batch_matmul_broadcast", [1, 3, 4], [2, 4, 5], False, False),
                                           ("batch_matmul_4d", [2, 2, 3, 4], [2, 2, 4, 5], False, False)]:
        @case(name, "%s x %s, adj_x %s, adj_y %s" % (a_shape, b_shape, ax, ay), ACCUM)
        def _(m, a_shape=a_shape, b_shape=b_shape, ax=ax, ay=ay):
            a, b = m.input("a", a_shape), m.input("b", b_shape)
            m.output(m.op("BATCH_MATMUL", [a, b], batch_matmul_ref(ax, ay), "BatchMatMulOptions",
                          {"adj_x": ax, "adj_y": ay}))

    @case("batch_matmul_constant_rhs", "[2,3,4] x float constant [4,5] (rank-2 rhs broadcast)", ACCUM)
    def _(m):
        a = m.input("a", [2, 3, 4])
        m.output(m.op("BATCH_MATMUL", [a, m.weights("b", [4, 5])], batch_matmul_ref(), "BatchMatMulOptions",
                      {"adj_x": False, "adj_y": False}))

    # ---- MEAN / SUM / REDUCE_MAX
    for op, fn, tol in [("MEAN", np.mean, ACCUM), ("SUM", np.sum, ACCUM), ("REDUCE_MAX", np.max, EXACT)]:
        lo = op.lower()
        for suffix, shape, axes, keep in [("axis1", [2, 3, 4, 5], [1], False),
                                          ("axes12_keep_dims", [2, 3, 4, 5], [1, 2], True),
                                          ("last_axis", [2, 3, 4, 5], [-1], False),
                                          ("all_axes", [3, 4, 5], [0, 1, 2], op == "SUM")]:
            @case("%s_%s" % (lo, suffix), "%s of %s over axes %s, keep_dims %s" % (op, shape, axes, keep), tol)
            def _(m, op=op, fn=fn, shape=shape, axes=axes, keep=keep):
                x = m.input("x", shape)
                m.output(m.op(op, [x, m.i32("axes", axes)], reduce_ref(fn, keep), "ReducerOptions",
                              {"keep_dims": keep}))

    # ---- CONCATENATION
    for name, shapes, axis in [("concatenation_axis0", [[2, 3, 4], [1, 3, 4]], 0),
                               ("concatenation_axis1", [[2, 3, 4], [2, 2, 4], [2, 1, 4]], 1),
                               ("concatenation_last_axis", [[2, 3, 4], [2, 3, 1]], -1),
                               ("concatenation_5d_axis2", [[2, 1, 2, 3, 2], [2, 1, 3, 3, 2]], 2)]:
        @case(name, "%s on axis %d" % (" + ".join(str(s) for s in shapes), axis), EXACT)
        def _(m, shapes=shapes, axis=axis):
            xs = [m.input("x%d" % i, s) for i, s in enumerate(shapes)]
            m.output(m.op("CONCATENATION", xs, lambda *v: np.concatenate(v, axis=axis), "ConcatenationOptions",
                          {"axis": axis, "fused_activation_function": "NONE"}))

    # ---- MIRROR_PAD
    for name, shape, pads, mode in [("mirror_pad_reflect", [1, 4, 5, 2], [[0, 0], [1, 2], [2, 1], [0, 0]], "REFLECT"),
                                    ("mirror_pad_symmetric", [1, 4, 5, 2], [[0, 0], [1, 2], [2, 1], [0, 0]],
                                     "SYMMETRIC"),
                                    ("mirror_pad_reflect_2d", [3, 4], [[2, 1], [1, 3]], "REFLECT")]:
        @case(name, "%s paddings %s %s" % (shape, pads, mode), EXACT)
        def _(m, shape=shape, pads=pads, mode=mode):
            x = m.input("x", shape)
            m.output(m.op("MIRROR_PAD", [x, m.i32("paddings", pads)],
                          lambda v, p: np.pad(v, pads, mode=mode.lower()), "MirrorPadOptions", {"mode": mode}))


# ---------------------------------------------------------------- output


def f32(v):
    """A Python float that prints as the shortest decimal that round-trips to the float32 v."""
    return float(str(np.float32(v)))


def fmt(v, indent=0, width=110):
    """Compact JSON: objects and lists of containers one item a line, lists of numbers wrapped."""
    pad = " " * indent
    if isinstance(v, dict):
        if not v:
            return "{}"
        items = ["%s %s: %s" % (pad, json.dumps(k), fmt(x, indent + 1, width)) for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(v, list):
        if any(isinstance(x, (dict, list)) for x in v):
            if all(isinstance(x, list) and not any(isinstance(y, (dict, list)) for y in x) for x in v) \
                    and sum(len(x) for x in v) <= 16:
                return json.dumps(v)  # small nested int lists (paddings, shapes) on one line
            return "[\n" + ",\n".join(pad + " " + fmt(x, indent + 1, width) for x in v) + "\n" + pad + "]"
        lines, line = [], ""
        for x in v:
            s = json.dumps(x)
            if line and len(line) + len(s) + 2 > width - indent:
                lines.append(line + ",")
                line = ""
            line = line + ", " + s if line else s
        if not lines:
            return "[" + line + "]"
        lines.append(line)
        return "[\n" + "\n".join(pad + "  " + l for l in lines) + "\n" + pad + " ]"
    return json.dumps(v)


def write(path, obj):
    with open(path, "w") as f:
        f.write(fmt(obj) + "\n")


def run_litert(content, feeds, resolver):
    it = Interpreter(model_content=content, num_threads=1, experimental_op_resolver_type=resolver)
    it.allocate_tensors()
    for d, x in zip(it.get_input_details(), feeds):
        it.set_tensor(d["index"], x)
    it.invoke()
    return [it.get_tensor(d["index"]).copy() for d in it.get_output_details()]


def max_abs_diff(xs, ys):
    d = 0.0
    for x, y in zip(xs, ys):
        assert np.shape(x) == np.shape(y), (np.shape(x), np.shape(y))
        if np.size(x):
            d = max(d, float(np.max(np.abs(np.asarray(x, F64) - np.asarray(y, F64)))))
    return d


def round_up(t):
    """Round a tolerance up to 1, 2 or 5 times a power of ten."""
    if t <= 0:
        return 0.0
    e = math.floor(math.log10(t))
    for m in (1, 2, 5, 10):
        if m * 10.0 ** e >= t * (1 - 1e-12):
            return float("%.0e" % (m * 10.0 ** e))


def main():
    flatc = shutil.which("flatc")
    if not flatc:
        sys.exit("flatc not found on PATH")
    selection = sys.argv[1:]
    define_cases()
    names = [c[0] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    os.makedirs(MODELS, exist_ok=True)
    expected, summary = {}, []
    with tempfile.TemporaryDirectory() as work:
        for name, description, tol_class, fn in CASES:
            if selection and not any(s in name for s in selection):
                continue
            m = Model(name, description)
            fn(m)
            source = os.path.join(MODELS, name + ".json")
            write(source, m.json())
            subprocess.run([flatc, "-b", "-o", work, SCHEMA, source], check=True)
            content = open(os.path.join(work, name + ".tflite"), "rb").read()

            golden = run_litert(content, m.feeds, OpResolverType.BUILTIN_REF)
            default = run_litert(content, m.feeds, OpResolverType.AUTO)
            # Rounded to float32: for one +, -, *, / or sqrt that is the correctly rounded float32 result.
            numpy_ref = [np.asarray(m.values[i], np.float32) for i in m.outputs]
            for g in golden:
                assert g.dtype == np.float32 and np.all(np.isfinite(g)), name
            d_default = max_abs_diff(golden, default)
            d_numpy = max_abs_diff(golden, numpy_ref)
            scale = max([1.0] + [float(np.max(np.abs(g))) for g in golden if g.size])
            if tol_class is None:  # hybrid int8: the NumPy model uses the dequantized weights in float
                tol = round_up(2 * max(d_numpy, d_default))
            else:
                tol = round_up(tol_class * scale)
                if tol_class != EXACT:
                    tol = max(tol, round_up(2 * max(d_default, d_numpy)))
            entry = {
                "description": description,
                "operators": m.op_names,
                "inputs": [[f32(v) for v in x.ravel()] for x in m.feeds],
                "input_shapes": [list(x.shape) for x in m.feeds],
                "outputs": [[f32(v) for v in g.ravel()] for g in golden],
                "output_shapes": [list(g.shape) for g in golden],
                "tolerance": tol,
                "litert_default_max_abs_diff": f32(d_default),
                "numpy_max_abs_diff": f32(d_numpy),
            }
            if tol_class is None:
                entry["dequantized_float_outputs"] = [[f32(v) for v in np.asarray(r, np.float32).ravel()]
                                                      for r in numpy_ref]
            entry.update(m.notes)
            expected[name] = entry
            flag = ""
            if tol_class == EXACT and (d_default or d_numpy):
                flag = "  <-- not exact"
            summary.append("%-42s %-40s tol %-7g default-vs-ref %-10.3g numpy-vs-ref %.3g%s" % (
                name, ",".join(dict.fromkeys(m.op_names)), tol, d_default, d_numpy, flag))
    print("\n".join(summary))
    if selection:
        print("(selection: expected.json not rewritten)")
        return
    doc = {
        "_about": "Operator conformance cases: seeded float32 inputs and the outputs of LiteRT's reference "
                  "kernels (BUILTIN_REF), flattened row-major. Written by make_operator_models.py; "
                  "see README.md for the tolerance.",
    }
    doc.update(expected)
    write(EXPECTED, doc)
    print("%d cases; wrote models/*.json and expected.json" % len(expected))


if __name__ == "__main__":
    main()
