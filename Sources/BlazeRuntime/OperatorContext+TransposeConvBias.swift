import BlazeKernels
import BlazeTFLite

extension OperatorContext {
    /// MediaPipe's `Convolution2DTransposeBias`: a float32 NHWC input, constant OHWI weights and a constant
    /// bias of the output channels. Its custom options are the raw bytes of TFLite's `TfLiteTransposeConvParams`
    /// (little-endian int32 padding, stride_width, stride_height; MediaPipe reads no more): padding 1 is SAME,
    /// 0 (unknown) and 2 VALID.
    func lowerTransposeConvBias() throws -> GraphNode {
        try expectCounts(inputs: 3, outputs: 1)
        let input = op.inputs[0], weights = op.inputs[1], biasTensor = op.inputs[2]
        try requireFloat32(input)
        guard graph.tensors[input].shape.count == 4, graph.tensors[weights].shape.count == 4,
              graph.tensors[biasTensor].shape.count == 1 else {
            throw invalid("expects a rank-4 input and weights and a rank-1 bias")
        }
        guard let range = op.customOptions else { throw invalid("has no custom options (padding and strides)") }
        let bytes = builder.model.bytes(in: range)
        guard bytes.count >= 12 else { throw invalid("custom options have \(bytes.count) bytes, expected at least 12") }
        func int32(_ k: Int) -> Int { Int(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 * k, as: Int32.self))) }
        let (paddingCode, strideW, strideH) = (int32(0), int32(1), int32(2))
        let padding: Padding
        switch paddingCode {
        case 1: padding = .same
        case 0, 2: padding = .valid
        default: throw unsupported("padding \(paddingCode)")
        }
        guard strideW > 0, strideH > 0 else { throw invalid("stride \(strideH)x\(strideW) is not positive") }
        let filterShape = try shape4(weights)
        let kernel = try TransposeConvBias(
            inputShape: try shape4(input), filterShape: filterShape,
            filter: try constantFloats(weights, role: "weights"), bias: try constantFloats(biasTensor, role: "bias"),
            strideH: strideH, strideW: strideW, padding: padding, variant: variant)
        try expectOutput(op.outputs[0], kernel.outputShape)
        return step(kernel, inputs: [input],
                    summary: "\(filterShape.h)x\(filterShape.w)/\(strideH) \(filterShape.c)->\(filterShape.n) \(padding == .same ? "SAME" : "VALID")")
    }
}
