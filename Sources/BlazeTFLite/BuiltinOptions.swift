/// TFLite's padding scheme (schema enum `Padding`).
public enum PaddingType: Int8, Sendable {
    /// Output size `ceil(input / stride)`; the padding is split with the extra row or column at the bottom or
    /// right (TFLite's `SAME`).
    case same = 0
    /// No padding: output size `ceil((input - (filter - 1) · dilation) / stride)` (TFLite's `VALID`).
    case valid = 1
}

/// TFLite's fused activation (schema enum `ActivationFunctionType`). Kept raw: the interpreter decides
/// which values it supports.
public struct ActivationFunction: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The schema's value (0 `NONE` to 5 `SIGN_BIT`); unknown values are kept as they are.
    public let rawValue: Int8
    /// Wraps any schema value, known or not.
    /// - Parameter rawValue: the file's `fused_activation_function` byte.
    public init(rawValue: Int8) { self.rawValue = rawValue }
    /// No activation: the operator's result as it is.
    public static let none = ActivationFunction(rawValue: 0)
    /// `max(0, x)`.
    public static let relu = ActivationFunction(rawValue: 1)
    /// `min(max(-1, x), 1)`.
    public static let reluN1To1 = ActivationFunction(rawValue: 2)
    /// `min(max(0, x), 6)`.
    public static let relu6 = ActivationFunction(rawValue: 3)
    /// `tanh(x)` (not run by this library's interpreter).
    public static let tanh = ActivationFunction(rawValue: 4)
    /// The sign bit (not run by this library's interpreter).
    public static let signBit = ActivationFunction(rawValue: 5)

    /// The schema's name, such as `RELU6`, or `ACTIVATION_<n>` for an unknown value.
    public var description: String {
        switch rawValue {
        case 0: return "NONE"
        case 1: return "RELU"
        case 2: return "RELU_N1_TO_1"
        case 3: return "RELU6"
        case 4: return "TANH"
        case 5: return "SIGN_BIT"
        default: return "ACTIVATION_\(rawValue)"
        }
    }
}

/// Options of `CONV_2D` (schema table `Conv2DOptions`). Strides and dilations are in input pixels.
public struct Conv2DOptions: Hashable, Sendable {
    /// How the input is padded.
    public var padding: PaddingType
    /// Horizontal stride, in input pixels.
    public var strideW: Int
    /// Vertical stride, in input pixels.
    public var strideH: Int
    /// The activation fused into the operator's output.
    public var activation: ActivationFunction
    /// Horizontal dilation: the distance between filter taps, in input pixels (1 when the file omits it).
    public var dilationW: Int
    /// Vertical dilation: the distance between filter taps, in input pixels (1 when the file omits it).
    public var dilationH: Int
}

/// Options of `DEPTHWISE_CONV_2D` (schema table `DepthwiseConv2DOptions`). Strides and dilations are in input
/// pixels.
public struct DepthwiseConv2DOptions: Hashable, Sendable {
    /// How the input is padded.
    public var padding: PaddingType
    /// Horizontal stride, in input pixels.
    public var strideW: Int
    /// Vertical stride, in input pixels.
    public var strideH: Int
    /// Output channels per input channel (0 when the file omits it; the filter's shape decides then).
    public var depthMultiplier: Int
    /// The activation fused into the operator's output.
    public var activation: ActivationFunction
    /// Horizontal dilation: the distance between filter taps, in input pixels (1 when the file omits it).
    public var dilationW: Int
    /// Vertical dilation: the distance between filter taps, in input pixels (1 when the file omits it).
    public var dilationH: Int
}

/// Options of `MAX_POOL_2D` and `AVERAGE_POOL_2D` (schema table `Pool2DOptions`). Sizes are in input pixels.
public struct Pool2DOptions: Hashable, Sendable {
    /// How the input is padded.
    public var padding: PaddingType
    /// Horizontal stride, in input pixels.
    public var strideW: Int
    /// Vertical stride, in input pixels.
    public var strideH: Int
    /// Width of the pooling window, in input pixels.
    public var filterWidth: Int
    /// Height of the pooling window, in input pixels.
    public var filterHeight: Int
    /// The activation fused into the operator's output.
    public var activation: ActivationFunction
}

/// Options of `CONCATENATION` (schema table `ConcatenationOptions`).
public struct ConcatenationOptions: Hashable, Sendable {
    /// The dimension the inputs are joined along; negative values count from the last dimension.
    public var axis: Int
    /// The activation fused into the operator's output.
    public var activation: ActivationFunction
}

/// Options of `RESIZE_BILINEAR` (schema table `ResizeBilinearOptions`); the output size is the operator's second
/// input.
public struct ResizeBilinearOptions: Hashable, Sendable {
    /// Whether the corner pixels' centres of input and output are aligned (scale `(in - 1) / (out - 1)`).
    public var alignCorners: Bool
    /// Whether pixel centres are at half-integer positions (`(x + 0.5) · scale - 0.5`), as OpenCV and
    /// TensorFlow 2 resize.
    public var halfPixelCenters: Bool

    /// Creates resize options.
    /// - Parameters:
    ///   - alignCorners: whether the corner pixels' centres are aligned.
    ///   - halfPixelCenters: whether pixel centres are at half-integer positions.
    public init(alignCorners: Bool, halfPixelCenters: Bool) {
        self.alignCorners = alignCorners
        self.halfPixelCenters = halfPixelCenters
    }

    /// The schema defaults: both flags false.
    public static let `default` = ResizeBilinearOptions(alignCorners: false, halfPixelCenters: false)
}

/// Options of `STRIDED_SLICE`: bit `i` of a mask refers to entry `i` of the begin/end/strides inputs.
public struct StridedSliceOptions: Hashable, Sendable {
    /// Bit `i` set: ignore `begin[i]` and start at the first (or, for a negative stride, last) element.
    public var beginMask: Int
    /// Bit `i` set: ignore `end[i]` and run to the last (or, for a negative stride, first) element.
    public var endMask: Int
    /// Bit `i` set: entry `i` stands for all the dimensions not otherwise named (TensorFlow's `...`).
    public var ellipsisMask: Int
    /// Bit `i` set: entry `i` inserts a dimension of size 1.
    public var newAxisMask: Int
    /// Bit `i` set: dimension `i` is taken at `begin[i]` alone and removed from the output's shape.
    public var shrinkAxisMask: Int
    /// Whether `end` counts from `begin` (`end = begin + end`), a later schema field.
    public var offset: Bool

    /// Creates strided-slice options; every mask defaults to 0 (no bit set).
    /// - Parameters:
    ///   - beginMask: bits of the entries whose `begin` is ignored.
    ///   - endMask: bits of the entries whose `end` is ignored.
    ///   - ellipsisMask: bits of the entries that stand for the remaining dimensions.
    ///   - newAxisMask: bits of the entries that insert a dimension of size 1.
    ///   - shrinkAxisMask: bits of the dimensions that are removed from the output's shape.
    ///   - offset: whether `end` counts from `begin`.
    public init(beginMask: Int = 0, endMask: Int = 0, ellipsisMask: Int = 0, newAxisMask: Int = 0,
                shrinkAxisMask: Int = 0, offset: Bool = false) {
        (self.beginMask, self.endMask, self.ellipsisMask) = (beginMask, endMask, ellipsisMask)
        (self.newAxisMask, self.shrinkAxisMask, self.offset) = (newAxisMask, shrinkAxisMask, offset)
    }
}

/// The builtin options of an operator, decoded for the operators this library runs.
///
/// Options of other operators are kept as `.other(unionType:)`: the model still loads, and the
/// interpreter reports the operator as unsupported.
public enum BuiltinOptions: Hashable, Sendable {
    /// No options table (union type 0).
    case none
    /// `CONV_2D`'s options.
    case conv2D(Conv2DOptions)
    /// `DEPTHWISE_CONV_2D`'s options.
    case depthwiseConv2D(DepthwiseConv2DOptions)
    /// `MAX_POOL_2D`'s or `AVERAGE_POOL_2D`'s options.
    case pool2D(Pool2DOptions)
    /// `ADD`'s options: the fused activation.
    case add(activation: ActivationFunction)
    /// `MUL`'s options: the fused activation.
    case mul(activation: ActivationFunction)
    /// `CONCATENATION`'s options.
    case concatenation(ConcatenationOptions)
    /// `RESHAPE`'s options: the new shape when the file records it here (nil: it is the second input).
    case reshape(newShape: [Int]?)
    /// `RESIZE_BILINEAR`'s options.
    case resizeBilinear(ResizeBilinearOptions)
    /// `DEPTH_TO_SPACE`'s options: the side of the square block, in output pixels, that each input pixel's
    /// channels fill.
    case depthToSpace(blockSize: Int)
    /// `STRIDED_SLICE`'s options.
    case stridedSlice(StridedSliceOptions)
    /// ReducerOptions (MEAN, SUM, REDUCE_MAX, ...).
    case reducer(keepDims: Bool)
    /// `FULLY_CONNECTED`'s options.
    case fullyConnected(FullyConnectedOptions)
    /// `SOFTMAX`'s options: `beta`, the factor of the logits.
    case softmax(beta: Float)
    /// `SUB`'s options: the fused activation.
    case sub(activation: ActivationFunction)
    /// `DIV`'s options: the fused activation.
    case div(activation: ActivationFunction)
    /// `RESIZE_NEAREST_NEIGHBOR`'s options: the same two flags as `RESIZE_BILINEAR`'s.
    case resizeNearestNeighbor(ResizeBilinearOptions)
    /// `LEAKY_RELU`'s options: the slope of negative values.
    case leakyReLU(alpha: Float)
    /// `SQUEEZE`'s options: the dimensions to remove (empty: every dimension of size 1).
    case squeeze(dimensions: [Int])
    /// `GATHER`'s options.
    case gather(axis: Int, batchDimensions: Int)
    /// `MIRROR_PAD`'s options.
    case mirrorPad(MirrorPadMode)
    /// `SPLIT`'s and `SPLIT_V`'s options: the number of outputs.
    case split(count: Int)
    /// `PACK`'s options: the number of inputs and the new axis.
    case pack(count: Int, axis: Int)
    /// `UNPACK`'s options: the number of outputs and the removed axis.
    case unpack(count: Int, axis: Int)
    /// `BATCH_MATMUL`'s options: whether each operand's last two dimensions are transposed.
    case batchMatMul(adjointX: Bool, adjointY: Bool)
    /// `GELU`'s options: the tanh approximation, or the exact error-function form.
    case gelu(approximate: Bool)
    /// `SHAPE`'s options: the output's element type (INT32 or INT64).
    case shape(outputType: TensorType)
    /// Options tables with no fields (PadOptions, DequantizeOptions, DensifyOptions, HardSwishOptions, ...).
    case empty(unionType: UInt8)
    /// An options table this library does not decode.
    case other(unionType: UInt8)
}

/// Union member indices of the schema's `BuiltinOptions` union (facts from TensorFlow's schema.fbs).
enum BuiltinOptionsType {
    static let conv2D: UInt8 = 1
    static let depthwiseConv2D: UInt8 = 2
    static let pool2D: UInt8 = 5
    static let concatenation: UInt8 = 10
    static let add: UInt8 = 11
    static let resizeBilinear: UInt8 = 15
    static let reshape: UInt8 = 17
    static let mul: UInt8 = 21
    static let pad: UInt8 = 22
    static let reducer: UInt8 = 27
    static let stridedSlice: UInt8 = 32
    static let dequantize: UInt8 = 38
    static let hardSwish: UInt8 = 91
    static let depthToSpace: UInt8 = 94
    static let densify: UInt8 = 99
}

extension FlatBufferReader {
    private func padding(_ t: Table?, _ id: Int) throws(TFLiteError) -> PaddingType {
        guard let t else { return .same }
        let raw: Int8 = try field(t, id, "padding", default: 0)
        guard let p = PaddingType(rawValue: raw) else {
            throw TFLiteError.invalidValue(path: t.path + ".padding", reason: "unknown padding \(raw)")
        }
        return p
    }

    func int(_ t: Table?, _ id: Int, _ name: String, _ value: Int32) throws(TFLiteError) -> Int {
        guard let t else { return Int(value) }
        return Int(try field(t, id, name, default: value))
    }

    func activation(_ t: Table?, _ id: Int) throws(TFLiteError) -> ActivationFunction {
        guard let t else { return .none }
        return ActivationFunction(rawValue: try field(t, id, "fused_activation_function", default: Int8(0)))
    }

    func bool(_ t: Table?, _ id: Int, _ name: String) throws(TFLiteError) -> Bool {
        guard let t else { return false }
        return try field(t, id, name, default: false)
    }

    func float(_ t: Table?, _ id: Int, _ name: String, _ value: Float) throws(TFLiteError) -> Float {
        guard let t else { return value }
        return try field(t, id, name, default: value)
    }

    func byte(_ t: Table?, _ id: Int, _ name: String) throws(TFLiteError) -> Int8 {
        guard let t else { return 0 }
        return try field(t, id, name, default: Int8(0))
    }

    /// Decodes the options table of `type` (a `BuiltinOptions` union member index). A union type with no
    /// table is read as the table with every field at its default.
    func builtinOptions(type: UInt8, table t: Table?) throws(TFLiteError) -> BuiltinOptions {
        switch type {
        case 0:
            return .none
        case BuiltinOptionsType.conv2D:
            return .conv2D(Conv2DOptions(
                padding: try padding(t, 0), strideW: try int(t, 1, "stride_w", 0), strideH: try int(t, 2, "stride_h", 0),
                activation: try activation(t, 3),
                dilationW: try int(t, 4, "dilation_w_factor", 1), dilationH: try int(t, 5, "dilation_h_factor", 1)))
        case BuiltinOptionsType.depthwiseConv2D:
            return .depthwiseConv2D(DepthwiseConv2DOptions(
                padding: try padding(t, 0), strideW: try int(t, 1, "stride_w", 0), strideH: try int(t, 2, "stride_h", 0),
                depthMultiplier: try int(t, 3, "depth_multiplier", 0), activation: try activation(t, 4),
                dilationW: try int(t, 5, "dilation_w_factor", 1), dilationH: try int(t, 6, "dilation_h_factor", 1)))
        case BuiltinOptionsType.pool2D:
            return .pool2D(Pool2DOptions(
                padding: try padding(t, 0), strideW: try int(t, 1, "stride_w", 0), strideH: try int(t, 2, "stride_h", 0),
                filterWidth: try int(t, 3, "filter_width", 0), filterHeight: try int(t, 4, "filter_height", 0),
                activation: try activation(t, 5)))
        case BuiltinOptionsType.concatenation:
            return .concatenation(ConcatenationOptions(axis: try int(t, 0, "axis", 0), activation: try activation(t, 1)))
        case BuiltinOptionsType.add:
            return .add(activation: try activation(t, 0))
        case BuiltinOptionsType.mul:
            return .mul(activation: try activation(t, 0))
        case BuiltinOptionsType.resizeBilinear:
            // Fields 0 and 1 (new_height, new_width) are deprecated; the size comes from the second input.
            return .resizeBilinear(ResizeBilinearOptions(
                alignCorners: try bool(t, 2, "align_corners"), halfPixelCenters: try bool(t, 3, "half_pixel_centers")))
        case BuiltinOptionsType.reshape:
            guard let t else { return .reshape(newShape: nil) }
            return .reshape(newShape: try integers(t, 0, "new_shape", as: Int32.self, limit: 16))
        case BuiltinOptionsType.depthToSpace:
            return .depthToSpace(blockSize: try int(t, 0, "block_size", 0))
        case BuiltinOptionsType.stridedSlice:
            return .stridedSlice(StridedSliceOptions(
                beginMask: try int(t, 0, "begin_mask", 0), endMask: try int(t, 1, "end_mask", 0),
                ellipsisMask: try int(t, 2, "ellipsis_mask", 0), newAxisMask: try int(t, 3, "new_axis_mask", 0),
                shrinkAxisMask: try int(t, 4, "shrink_axis_mask", 0), offset: try bool(t, 5, "offset")))
        case BuiltinOptionsType.reducer:
            return .reducer(keepDims: try bool(t, 0, "keep_dims"))
        case BuiltinOptionsType.pad, BuiltinOptionsType.dequantize, BuiltinOptionsType.densify,
             BuiltinOptionsType.hardSwish:
            return .empty(unionType: type)
        default:
            return try generalBuiltinOptions(type: type, table: t)
        }
    }
}
