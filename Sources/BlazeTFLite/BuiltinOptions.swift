/// TFLite's padding scheme (schema enum `Padding`).
public enum PaddingType: Int8, Sendable {
    case same = 0
    case valid = 1
}

/// TFLite's fused activation (schema enum `ActivationFunctionType`). Kept raw: the interpreter decides
/// which values it supports.
public struct ActivationFunction: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int8
    public init(rawValue: Int8) { self.rawValue = rawValue }
    public static let none = ActivationFunction(rawValue: 0)
    public static let relu = ActivationFunction(rawValue: 1)
    public static let reluN1To1 = ActivationFunction(rawValue: 2)
    public static let relu6 = ActivationFunction(rawValue: 3)
    public static let tanh = ActivationFunction(rawValue: 4)
    public static let signBit = ActivationFunction(rawValue: 5)

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

public struct Conv2DOptions: Hashable, Sendable {
    public var padding: PaddingType
    public var strideW: Int
    public var strideH: Int
    public var activation: ActivationFunction
    public var dilationW: Int
    public var dilationH: Int
}

public struct DepthwiseConv2DOptions: Hashable, Sendable {
    public var padding: PaddingType
    public var strideW: Int
    public var strideH: Int
    public var depthMultiplier: Int
    public var activation: ActivationFunction
    public var dilationW: Int
    public var dilationH: Int
}

public struct Pool2DOptions: Hashable, Sendable {
    public var padding: PaddingType
    public var strideW: Int
    public var strideH: Int
    public var filterWidth: Int
    public var filterHeight: Int
    public var activation: ActivationFunction
}

public struct ConcatenationOptions: Hashable, Sendable {
    public var axis: Int
    public var activation: ActivationFunction
}

public struct ResizeBilinearOptions: Hashable, Sendable {
    public var alignCorners: Bool
    public var halfPixelCenters: Bool

    public init(alignCorners: Bool, halfPixelCenters: Bool) {
        self.alignCorners = alignCorners
        self.halfPixelCenters = halfPixelCenters
    }

    /// The schema defaults: both flags false.
    public static let `default` = ResizeBilinearOptions(alignCorners: false, halfPixelCenters: false)
}

/// Options of `STRIDED_SLICE`: bit `i` of a mask refers to entry `i` of the begin/end/strides inputs.
public struct StridedSliceOptions: Hashable, Sendable {
    public var beginMask: Int
    public var endMask: Int
    public var ellipsisMask: Int
    public var newAxisMask: Int
    public var shrinkAxisMask: Int
    /// Whether `end` counts from `begin` (`end = begin + end`), a later schema field.
    public var offset: Bool

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
    case none
    case conv2D(Conv2DOptions)
    case depthwiseConv2D(DepthwiseConv2DOptions)
    case pool2D(Pool2DOptions)
    case add(activation: ActivationFunction)
    case mul(activation: ActivationFunction)
    case concatenation(ConcatenationOptions)
    case reshape(newShape: [Int]?)
    case resizeBilinear(ResizeBilinearOptions)
    case depthToSpace(blockSize: Int)
    case stridedSlice(StridedSliceOptions)
    /// ReducerOptions (MEAN, SUM, REDUCE_MAX, ...).
    case reducer(keepDims: Bool)
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

    private func int(_ t: Table?, _ id: Int, _ name: String, _ value: Int32) throws(TFLiteError) -> Int {
        guard let t else { return Int(value) }
        return Int(try field(t, id, name, default: value))
    }

    private func activation(_ t: Table?, _ id: Int) throws(TFLiteError) -> ActivationFunction {
        guard let t else { return .none }
        return ActivationFunction(rawValue: try field(t, id, "fused_activation_function", default: Int8(0)))
    }

    private func bool(_ t: Table?, _ id: Int, _ name: String) throws(TFLiteError) -> Bool {
        guard let t else { return false }
        return try field(t, id, name, default: false)
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
            return .other(unionType: type)
        }
    }
}
