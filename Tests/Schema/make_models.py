#!/usr/bin/env python3
"""Writes the tiny TFLite test models of Tests/Schema/models/ as flatc JSON.

Plain Python 3 (no numpy). For every model it writes models/<name>.json; with
flatc on PATH it also builds models/<name>.tflite from it (flatc -b against
../tflite_subset.fbs). models/expected.json gets the fixed inputs and the
reference outputs of the valid models (computed here, in float64, from the
float32 / float16-rounded values), and the expected failure of the invalid ones.

    python3 Tests/Schema/make_models.py            # JSON + .tflite + expected.json
    python3 Tests/Schema/make_models.py --no-build # JSON + expected.json only

Conventions: buffer 0 is the empty sentinel; tensors that are not constants
use buffer 0; Buffer.data holds little-endian bytes (float32 / float16 / int32).
"""

import json
import os
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "models")
SCHEMA = os.path.join(HERE, "tflite_subset.fbs")

# ---------------------------------------------------------------- helpers


def f32(x):
    """Round to the nearest float32."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f16(x):
    """Round to the nearest float16."""
    return struct.unpack("<e", struct.pack("<e", x))[0]


def flatten(v):
    if isinstance(v, (list, tuple)):
        out = []
        for e in v:
            out.extend(flatten(e))
        return out
    return [v]


def bytes_f32(values):
    return list(struct.pack("<%df" % len(values), *values))


def bytes_f16(values):
    return list(struct.pack("<%de" % len(values), *values))


def bytes_i32(values):
    return list(struct.pack("<%di" % len(values), *values))


def tensor(name, shape, ttype="FLOAT32", buffer=0):
    return {"shape": list(shape), "type": ttype, "buffer": buffer, "name": name}


def model(description, operator_codes, tensors, inputs, outputs, operators, buffers):
    """A complete Model. buffers: list of byte lists, without the sentinel."""
    return {
        "version": 3,
        "operator_codes": operator_codes,
        "subgraphs": [
            {
                "tensors": tensors,
                "inputs": inputs,
                "outputs": outputs,
                "operators": operators,
                "name": "main",
            }
        ],
        "description": description,
        "buffers": [{}] + [{"data": b} for b in buffers],
    }


def shape_size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def conv2d_nhwc(x, xs, w, ws, bias, stride, same, act):
    """Reference CONV_2D: x NHWC (flat), w OHWI (flat), TFLite SAME/VALID padding."""
    n, ih, iw, ic = xs
    oc, kh, kw, wic = ws
    assert wic == ic
    if same:
        oh, ow = -(-ih // stride), -(-iw // stride)
        pt = max((oh - 1) * stride + kh - ih, 0) // 2
        pl = max((ow - 1) * stride + kw - iw, 0) // 2
    else:
        oh, ow = (ih - kh) // stride + 1, (iw - kw) // stride + 1
        pt = pl = 0
    out = []
    for b in range(n):
        for y in range(oh):
            for xx in range(ow):
                for o in range(oc):
                    acc = bias[o]
                    for ky in range(kh):
                        for kx in range(kw):
                            sy, sx = y * stride - pt + ky, xx * stride - pl + kx
                            if 0 <= sy < ih and 0 <= sx < iw:
                                for c in range(ic):
                                    acc += (x[((b * ih + sy) * iw + sx) * ic + c]
                                            * w[((o * kh + ky) * kw + kx) * ic + c])
                    out.append(act(acc))
    return out, [n, oh, ow, oc]


def relu6(v):
    return min(max(v, 0.0), 6.0)


def identity(v):
    return v


# ---------------------------------------------------------------- valid models

def conv_relu6():
    # Input 1x5x5x2; every value a multiple of 0.25 (exact in float32).
    x_shape = [1, 5, 5, 2]
    x = [((h * 5 + w) * 2 + c - 25) * 0.25
         for h in range(5) for w in range(5) for c in range(2)]
    # Filter OHWI = [3 out][3 kh][3 kw][2 in]; multiples of 0.25, exact.
    w = [
        [  # output channel 0: a positive blur -> ramps from clamped-at-0 to clamped-at-6
            [[0.25, 0.125], [0.25, 0.125], [0.25, 0.125]],
            [[0.25, 0.125], [0.5, 0.25], [0.25, 0.125]],
            [[0.25, 0.125], [0.25, 0.125], [0.25, 0.125]],
        ],
        [  # output channel 1: negative weights, mixed per input channel
            [[-0.5, 0.0], [-0.25, 0.0], [-0.5, 0.0]],
            [[0.0, -0.25], [-1.0, 0.0], [0.0, -0.25]],
            [[-0.5, 0.0], [-0.25, 0.0], [-0.5, 0.0]],
        ],
        [  # output channel 2: a Sobel-like x edge detector on input channel 1 only
            [[0.0, -0.5], [0.0, 0.0], [0.0, 0.5]],
            [[0.0, -1.0], [0.0, 0.0], [0.0, 1.0]],
            [[0.0, -0.5], [0.0, 0.0], [0.0, 0.5]],
        ],
    ]
    w_shape = [3, 3, 3, 2]
    w_flat = flatten(w)
    bias = [0.5, -1.0, 2.0]
    assert len(w_flat) == shape_size(w_shape)

    y, y_shape = conv2d_nhwc(x, x_shape, w_flat, w_shape, bias, stride=2, same=True, act=relu6)
    m = model(
        "swift-blazeface test: CONV_2D 3x3 stride 2 SAME + RELU6 (legacy 8-bit opcode only)",
        # Like the older MediaPipe models: only the 8-bit deprecated_builtin_code is set
        # (builtin_code left at its default 0).
        [{"deprecated_builtin_code": 3, "version": 1}],
        [
            tensor("input", x_shape),
            tensor("conv/filter", w_shape, buffer=1),
            tensor("conv/bias", [3], buffer=2),
            tensor("output", y_shape),
        ],
        [0],
        [3],
        [{
            "opcode_index": 0,
            "inputs": [0, 1, 2],
            "outputs": [3],
            "builtin_options_type": "Conv2DOptions",
            "builtin_options": {
                "padding": "SAME", "stride_w": 2, "stride_h": 2,
                "fused_activation_function": "RELU6",
                "dilation_w_factor": 1, "dilation_h_factor": 1,
            },
        }],
        [bytes_f32(w_flat), bytes_f32(bias)],
    )
    expected = {
        "inputs": [{"name": "input", "shape": x_shape, "data": x}],
        "outputs": [{"name": "output", "shape": y_shape, "data": y}],
        "atol": 0.0,
        "note": "inputs are multiples of 1/4, weights of 1/8: every partial sum is exact in float32",
    }
    return m, expected


def add_broadcast():
    a_shape, b_shape = [1, 2, 3, 4], [1, 1, 1, 4]
    a = [i * 0.5 - 3.0 for i in range(24)]
    b = [10.0, -20.0, 0.25, 100.0]
    y = [a[i] + b[i % 4] for i in range(24)]
    m = model(
        "swift-blazeface test: ADD with broadcasting (both opcode fields set)",
        [{"deprecated_builtin_code": 0, "version": 1, "builtin_code": "ADD"}],
        [tensor("a", a_shape), tensor("b", b_shape), tensor("sum", a_shape)],
        [0, 1],
        [2],
        [{
            "opcode_index": 0,
            "inputs": [0, 1],
            "outputs": [2],
            "builtin_options_type": "AddOptions",
            "builtin_options": {"fused_activation_function": "NONE"},
        }],
        [],
    )
    expected = {
        "inputs": [{"name": "a", "shape": a_shape, "data": a},
                   {"name": "b", "shape": b_shape, "data": b}],
        "outputs": [{"name": "sum", "shape": a_shape, "data": y}],
        "atol": 0.0,
    }
    return m, expected


def fp16_dequantize_conv():
    # As in the BlazeFace files: FLOAT16 constant -> DEQUANTIZE -> FLOAT32 -> CONV_2D.
    x_shape = [1, 2, 2, 3]
    x = [1.0, 2.0, 3.0, -1.0, 0.5, 0.25, 4.0, -2.0, 1.5, 0.0, 0.0, -8.0]
    w_shape = [2, 1, 1, 3]          # 1x1 conv, 3 -> 2 channels
    w_src = [0.1, -0.5, 2.0,        # 0.1 is not exact in float16: 0.0999755859375
             3.14159, 0.0, -1.0]    # 3.14159 -> 3.140625 in float16
    bias_src = [0.333, -1.5]        # 0.333 -> 0.333007812 in float16
    w = [f16(v) for v in w_src]
    bias = [f16(v) for v in bias_src]
    y, y_shape = conv2d_nhwc(x, x_shape, w, w_shape, bias, stride=1, same=False, act=identity)
    m = model(
        "swift-blazeface test: float16 weights -> DEQUANTIZE -> 1x1 CONV_2D",
        [
            {"deprecated_builtin_code": 6, "version": 2, "builtin_code": "DEQUANTIZE"},
            {"deprecated_builtin_code": 3, "version": 1, "builtin_code": "CONV_2D"},
        ],
        [
            tensor("input", x_shape),
            tensor("conv/filter_fp16", w_shape, "FLOAT16", buffer=1),
            tensor("conv/filter", w_shape),
            tensor("conv/bias_fp16", [2], "FLOAT16", buffer=2),
            tensor("conv/bias", [2]),
            tensor("output", y_shape),
        ],
        [0],
        [5],
        [
            {"opcode_index": 0, "inputs": [1], "outputs": [2]},
            {"opcode_index": 0, "inputs": [3], "outputs": [4]},
            {
                "opcode_index": 1,
                "inputs": [0, 2, 4],
                "outputs": [5],
                "builtin_options_type": "Conv2DOptions",
                "builtin_options": {
                    "padding": "VALID", "stride_w": 1, "stride_h": 1,
                    "fused_activation_function": "NONE",
                },
            },
        ],
        [bytes_f16(w_src), bytes_f16(bias_src)],
    )
    expected = {
        "inputs": [{"name": "input", "shape": x_shape, "data": x}],
        "outputs": [{"name": "output", "shape": y_shape, "data": y}],
        "dequantized": {"conv/filter": w, "conv/bias": bias},
        "atol": 1e-5,
        "note": "reference in float64 from the float16-rounded weights",
    }
    return m, expected


# ---------------------------------------------------------------- invalid models

def unsupported_op():
    # CUMSUM is builtin 128 > 127: the 8-bit field holds the placeholder 127 and
    # the real code is only in builtin_code (the "extended opcode" path).
    m = model(
        "swift-blazeface test: builtin CUMSUM (unsupported, extended opcode)",
        [{"deprecated_builtin_code": 127, "version": 1, "builtin_code": "CUMSUM"}],
        [tensor("input", [1, 4]), tensor("axis", [], "INT32", buffer=1), tensor("output", [1, 4])],
        [0],
        [2],
        [{
            "opcode_index": 0,
            "inputs": [0, 1],
            "outputs": [2],
            "builtin_options_type": "CumsumOptions",
            "builtin_options": {"exclusive": False, "reverse": False},
        }],
        [bytes_i32([1])],
    )
    return m, {"error": "unsupportedOperator", "operator": "CUMSUM", "builtin_code": 128}


def unsupported_custom_op():
    m = model(
        "swift-blazeface test: CUSTOM op MyOp (unsupported)",
        [{"deprecated_builtin_code": 32, "custom_code": "MyOp", "version": 1,
          "builtin_code": "CUSTOM"}],
        [tensor("input", [1, 4]), tensor("output", [1, 4])],
        [0],
        [1],
        [{
            "opcode_index": 0,
            "inputs": [0],
            "outputs": [1],
            "custom_options": [1, 2, 3, 4],
            "custom_options_format": "FLEXBUFFERS",
        }],
        [],
    )
    return m, {"error": "unsupportedOperator", "operator": "CUSTOM", "custom_code": "MyOp"}


def bad_shape():
    # Filter expects 5 input channels, the input has 3. Buffer sizes match the
    # declared shapes, so the channel mismatch is the only defect.
    w_shape = [2, 1, 1, 5]
    m = model(
        "swift-blazeface test: CONV_2D filter in-channels (5) != input channels (3)",
        [{"deprecated_builtin_code": 3, "version": 1, "builtin_code": "CONV_2D"}],
        [
            tensor("input", [1, 4, 4, 3]),
            tensor("conv/filter", w_shape, buffer=1),
            tensor("conv/bias", [2], buffer=2),
            tensor("output", [1, 4, 4, 2]),
        ],
        [0],
        [3],
        [{
            "opcode_index": 0,
            "inputs": [0, 1, 2],
            "outputs": [3],
            "builtin_options_type": "Conv2DOptions",
            "builtin_options": {"padding": "VALID", "stride_w": 1, "stride_h": 1},
        }],
        [bytes_f32([0.5] * shape_size(w_shape)), bytes_f32([0.0, 0.0])],
    )
    return m, {"error": "shapeMismatch", "operator_index": 0,
               "detail": "filter [2,1,1,5] vs input [1,4,4,3]"}


def bad_buffer_index():
    m = model(
        "swift-blazeface test: tensor 1 refers to buffer 7 of 2",
        [{"deprecated_builtin_code": 0, "version": 1, "builtin_code": "ADD"}],
        [tensor("input", [1, 4]), tensor("constant", [1, 4], buffer=7), tensor("output", [1, 4])],
        [0],
        [2],
        [{
            "opcode_index": 0,
            "inputs": [0, 1],
            "outputs": [2],
            "builtin_options_type": "AddOptions",
            "builtin_options": {},
        }],
        [bytes_f32([1.0, 2.0, 3.0, 4.0])],   # buffers = [sentinel, this] -> count 2
    )
    return m, {"error": "bufferIndexOutOfRange", "tensor_index": 1, "buffer": 7,
               "buffer_count": 2}


def cycle():
    # op 0: t1 = t0 + t2   (t2 is produced by op 1)
    # op 1: t2 = t1 + t0   (t1 is produced by op 0)  -> cycle, no valid order
    m = model(
        "swift-blazeface test: two ADDs that depend on each other (cycle)",
        [{"deprecated_builtin_code": 0, "version": 1, "builtin_code": "ADD"}],
        [tensor("input", [1, 4]), tensor("a", [1, 4]), tensor("b", [1, 4])],
        [0],
        [2],
        [
            {"opcode_index": 0, "inputs": [0, 2], "outputs": [1],
             "builtin_options_type": "AddOptions", "builtin_options": {}},
            {"opcode_index": 0, "inputs": [1, 0], "outputs": [2],
             "builtin_options_type": "AddOptions", "builtin_options": {}},
        ],
        [],
    )
    return m, {"error": "graphCycleOrNotTopologicallyOrdered", "operator_index": 0,
               "tensor_index": 2}


def sparse_bomb():
    # A "sparse" constant of 100000 x 100000 floats (40 GB dense) with one stored value: densifying it
    # must be refused before the dense buffer is allocated.
    dims = [{"format": "DENSE", "dense_size": 100000}, {"format": "DENSE", "dense_size": 100000}]
    sparse = tensor("sparse", [100000, 100000], buffer=1)
    sparse["sparsity"] = {"traversal_order": [0, 1], "dim_metadata": dims}
    m = model(
        "swift-blazeface test: DENSIFY of a constant whose dense form needs 40 GB",
        [{"deprecated_builtin_code": 124, "version": 1, "builtin_code": "DENSIFY"}],
        [sparse, tensor("dense", [100000, 100000]), tensor("unused_input", [1])],
        [2],
        [1],
        [{"opcode_index": 0, "inputs": [0], "outputs": [1]}],
        [bytes_f32([1.0])],
    )
    return m, {"error": "invalidSparsity", "tensor_index": 0}


MODELS = [
    ("conv_relu6", conv_relu6),
    ("add_broadcast", add_broadcast),
    ("fp16_dequantize_conv", fp16_dequantize_conv),
    ("unsupported_op", unsupported_op),
    ("unsupported_custom_op", unsupported_custom_op),
    ("bad_shape", bad_shape),
    ("bad_buffer_index", bad_buffer_index),
    ("cycle", cycle),
    ("sparse_bomb", sparse_bomb),
]


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


def main():
    build = "--no-build" not in sys.argv[1:]
    flatc = shutil.which("flatc")
    if build and not flatc:
        print("flatc not found: writing JSON only", file=sys.stderr)
        build = False
    os.makedirs(OUT, exist_ok=True)
    expected = {
        "_about": "Fixed inputs and reference outputs for the models in this folder "
                  "(data flattened row-major, NHWC). Written by make_models.py.",
    }
    for name, make in MODELS:
        m, exp = make()
        path = os.path.join(OUT, name + ".json")
        write_json(path, m)
        expected[name] = exp
        if build:
            subprocess.run([flatc, "-b", "-o", OUT, SCHEMA, path], check=True)
        print("wrote", os.path.relpath(path, HERE) + (" (+ .tflite)" if build else ""))
    write_json(os.path.join(OUT, "expected.json"), expected)
    print("wrote models/expected.json")


if __name__ == "__main__":
    main()
