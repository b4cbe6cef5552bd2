import BlazeTFLite

/// Readable forms of operator options and input roles, for `blazeface inspect`.
enum OperatorOptions {
    /// The options of an operator as `name=value` pairs in the schema's field order.
    static func describe(_ options: BuiltinOptions) -> [(name: String, value: String)] {
        switch options {
        case .none, .empty:
            return []
        case let .conv2D(o):
            return [("padding", padding(o.padding)), ("stride", "\(o.strideH)x\(o.strideW)"),
                    ("dilation", "\(o.dilationH)x\(o.dilationW)"), ("activation", o.activation.description)]
        case let .depthwiseConv2D(o):
            return [("padding", padding(o.padding)), ("stride", "\(o.strideH)x\(o.strideW)"),
                    ("depth_multiplier", String(o.depthMultiplier)),
                    ("dilation", "\(o.dilationH)x\(o.dilationW)"), ("activation", o.activation.description)]
        case let .pool2D(o):
            return [("filter", "\(o.filterHeight)x\(o.filterWidth)"), ("padding", padding(o.padding)),
                    ("stride", "\(o.strideH)x\(o.strideW)"), ("activation", o.activation.description)]
        case let .add(activation), let .mul(activation), let .sub(activation), let .div(activation):
            return [("activation", activation.description)]
        case let .concatenation(o):
            return [("axis", String(o.axis)), ("activation", o.activation.description)]
        case let .reshape(newShape):
            return newShape.map { [("new_shape", Format.shape($0))] } ?? []
        case let .resizeBilinear(o):
            return [("align_corners", String(o.alignCorners)), ("half_pixel_centers", String(o.halfPixelCenters))]
        case let .depthToSpace(blockSize):
            return [("block_size", String(blockSize))]
        case let .stridedSlice(o):
            return [("begin_mask", String(o.beginMask)), ("end_mask", String(o.endMask)),
                    ("ellipsis_mask", String(o.ellipsisMask)), ("new_axis_mask", String(o.newAxisMask)),
                    ("shrink_axis_mask", String(o.shrinkAxisMask)), ("offset", String(o.offset))]
        case let .reducer(keepDims):
            return [("keep_dims", String(keepDims))]
        case let .fullyConnected(o):
            return [("activation", o.activation.description), ("keep_num_dims", String(o.keepNumDims))]
        case let .softmax(beta):
            return [("beta", "\(beta)")]
        case let .resizeNearestNeighbor(o):
            return [("align_corners", String(o.alignCorners)), ("half_pixel_centers", String(o.halfPixelCenters))]
        case let .leakyReLU(alpha):
            return [("alpha", "\(alpha)")]
        case let .squeeze(dimensions):
            return [("squeeze_dims", Format.shape(dimensions))]
        case let .gather(axis, batchDimensions):
            return [("axis", String(axis)), ("batch_dims", String(batchDimensions))]
        case let .mirrorPad(mode):
            return [("mode", mode == .reflect ? "REFLECT" : "SYMMETRIC")]
        case let .split(count):
            return [("num_splits", String(count))]
        case let .pack(count, axis):
            return [("values_count", String(count)), ("axis", String(axis))]
        case let .unpack(count, axis):
            return [("num", String(count)), ("axis", String(axis))]
        case let .batchMatMul(adjointX, adjointY):
            return [("adj_x", String(adjointX)), ("adj_y", String(adjointY))]
        case let .gelu(approximate):
            return [("approximate", String(approximate))]
        case let .shape(outputType):
            return [("out_type", outputType.name)]
        case let .other(unionType):
            return [("options", "union type \(unionType), not decoded")]
        }
    }

    /// Names of an operator's inputs by position (`input`, `w`, `b`, ...), for operators whose inputs
    /// have distinct roles; empty when all inputs play the same part (ADD, CONCATENATION, ...).
    static func inputRoles(of code: BuiltinOperator) -> [String] {
        switch code {
        case .conv2D, .depthwiseConv2D, .fullyConnected: return ["in", "w", "b"]
        case .prelu: return ["in", "alpha"]
        case .pad: return ["in", "paddings", "value"]
        case .resizeBilinear, .resizeNearestNeighbor: return ["in", "size"]
        case .transpose: return ["in", "perm"]
        case .slice: return ["in", "begin", "size"]
        case .split: return ["axis", "in"]
        case .splitV: return ["in", "size_splits", "axis"]
        case .gather: return ["params", "indices"]
        case .mirrorPad: return ["in", "paddings"]
        case .expandDims: return ["in", "axis"]
        case .sum, .reduceMax, .reduceMin, .reduceProd: return ["in", "axes"]
        case .reshape: return ["in", "shape"]
        case .stridedSlice: return ["in", "begin", "end", "strides"]
        case .mean: return ["in", "axes"]
        default: return []
        }
    }

    private static func padding(_ p: PaddingType) -> String {
        switch p {
        case .same: return "SAME"
        case .valid: return "VALID"
        }
    }
}
