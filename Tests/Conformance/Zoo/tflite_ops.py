"""Reads a .tflite flatbuffer with the TFLite schema bindings that ship in ai-edge-litert (no TensorFlow
needed) and lists its operators. Shared by make_zoo.py and compare.py."""
import collections

from ai_edge_litert import schema_py_generated as schema

_BUILTIN_NAMES = {value: name for name, value in vars(schema.BuiltinOperator).items()
                  if not name.startswith("_") and isinstance(value, int)}


def _opcode_name(code):
    # builtin_code (int32) holds codes >= 127; deprecated_builtin_code (int8) holds the older ones, and old
    # writers fill only that one, so the larger of the two is the operator.
    builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
    if builtin == schema.BuiltinOperator.CUSTOM:
        custom = code.CustomCode()
        return "CUSTOM:" + (custom.decode("utf-8", "replace") if custom else "?")
    return _BUILTIN_NAMES.get(builtin, "BUILTIN_%d" % builtin)


def operator_counts(path):
    """{operator name: number of uses over all subgraphs}, sorted by name."""
    with open(path, "rb") as f:
        buf = f.read()
    model = schema.Model.GetRootAsModel(buf, 0)
    names = [_opcode_name(model.OperatorCodes(i)) for i in range(model.OperatorCodesLength())]
    counts = collections.Counter()
    for s in range(model.SubgraphsLength()):
        subgraph = model.Subgraphs(s)
        for o in range(subgraph.OperatorsLength()):
            counts[names[subgraph.Operators(o).OpcodeIndex()]] += 1
    return dict(sorted(counts.items()))


_INTEGER_WEIGHTS = (schema.TensorType.INT8, schema.TensorType.UINT8)


def _hybrid_weights(model):
    """Indices (subgraph, tensor) of integer constant tensors read directly by an operator with a float32
    output: weights of "hybrid" (dynamic-range quantized) operators, which LiteRT runs by quantizing the
    float activations at run time."""
    found = set()
    dequantize = schema.BuiltinOperator.DEQUANTIZE
    codes = [max(c.builtinCode, c.deprecatedBuiltinCode) for c in model.operatorCodes]
    for s, subgraph in enumerate(model.subgraphs):
        for op in subgraph.operators or []:
            outputs = [o for o in (op.outputs if op.outputs is not None else []) if o >= 0]
            if codes[op.opcodeIndex] == dequantize or not outputs:
                continue
            if subgraph.tensors[outputs[0]].type != schema.TensorType.FLOAT32:
                continue
            for i in (op.inputs if op.inputs is not None else []):
                tensor = subgraph.tensors[i] if i >= 0 else None
                if (tensor is not None and tensor.type in _INTEGER_WEIGHTS and tensor.quantization is not None
                        and tensor.quantization.scale is not None and len(tensor.quantization.scale)
                        and tensor.buffer and model.buffers[tensor.buffer].data is not None
                        and len(model.buffers[tensor.buffer].data)):
                    found.add((s, i))
    return found


def dequantized_copy(path):
    """For a model with hybrid operators (int8 weights, float activations): the bytes of a copy whose
    integer weights are dequantized to float32 (scale * (q - zero_point), per channel where quantized per
    channel), i.e. the same network computed in float. None when the model has no such weights."""
    import flatbuffers
    import numpy as np

    with open(path, "rb") as f:
        raw = f.read()
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(raw, 0))
    # Buffers stored after the flatbuffer (offset/size, as ai-edge-quantizer and litert-torch write them) would
    # point outside the rewritten file: read them into the flatbuffer first.
    for buffer in model.buffers:
        if buffer.offset is not None and buffer.offset > 1:
            buffer.data = np.frombuffer(raw[buffer.offset:buffer.offset + buffer.size], np.uint8)
            buffer.offset, buffer.size = 0, 0
    weights = _hybrid_weights(model)
    if not weights:
        return None
    for s, i in sorted(weights):
        tensor = model.subgraphs[s].tensors[i]
        q = tensor.quantization
        dtype = np.int8 if tensor.type == schema.TensorType.INT8 else np.uint8
        shape = [int(v) for v in tensor.shape]
        values = np.frombuffer(bytes(model.buffers[tensor.buffer].data), dtype).reshape(shape).astype(np.float32)
        scale = np.asarray(q.scale, np.float32)
        zero = np.asarray(q.zeroPoint if q.zeroPoint is not None and len(q.zeroPoint) else [0] * scale.size,
                          np.float32)
        if scale.size > 1:
            along = [1] * len(shape)
            along[q.quantizedDimension] = -1
            scale, zero = scale.reshape(along), zero.reshape(along)
        values = (values - zero) * scale
        # A buffer shared by several tensors is rewritten once per tensor; give each its own buffer.
        model.buffers.append(schema.BufferT())
        model.buffers[-1].data = np.frombuffer(values.astype(np.float32).tobytes(), np.uint8)
        tensor.buffer = len(model.buffers) - 1
        tensor.type = schema.TensorType.FLOAT32
        tensor.quantization = None
    builder = flatbuffers.Builder(1 << 20)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())
