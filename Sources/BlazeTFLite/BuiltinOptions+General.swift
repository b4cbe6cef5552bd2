/// `FULLY_CONNECTED`'s options.
public struct FullyConnectedOptions: Hashable, Sendable {
    /// The activation applied to the output.
    public var activation: ActivationFunction
    /// The weights' layout: 0 is the default `[outputs, inputs]`; 1 (`SHUFFLED4x16INT8`) is an int8 layout
    /// this library does not read.
    public var weightsFormat: Int
    /// Whether the output keeps the input's leading dimensions (`[..., outputs]`) instead of being
    /// flattened to `[rows, outputs]`.
    public var keepNumDims: Bool

    /// Options with every field given.
    /// - Parameters:
    ///   - activation: The activation applied to the output.
    ///   - weightsFormat: The weights' layout (0, the default, is `[outputs, inputs]`).
    ///   - keepNumDims: Whether the output keeps the input's leading dimensions.
    public init(activation: ActivationFunction, weightsFormat: Int = 0, keepNumDims: Bool = false) {
        (self.activation, self.weightsFormat, self.keepNumDims) = (activation, weightsFormat, keepNumDims)
    }
}

/// `MIRROR_PAD`'s mode.
public enum MirrorPadMode: Int8, Hashable, Sendable {
    /// The border value is not repeated: `[1 2 3]` padded by 2 is `[3 2 1 2 3 2 1]`.
    case reflect = 0
    /// The border value is repeated: `[1 2 3]` padded by 2 is `[2 1 1 2 3 3 2]`.
    case symmetric = 1
}

/// Union member indices of the general-purpose operators' options (facts from TensorFlow's schema.fbs).
enum GeneralOptionsType {
    static let fullyConnected: UInt8 = 8
    static let softmax: UInt8 = 9
    static let gather: UInt8 = 23
    static let transpose: UInt8 = 26
    static let sub: UInt8 = 28
    static let div: UInt8 = 29
    static let squeeze: UInt8 = 30
    static let exp: UInt8 = 33
    static let split: UInt8 = 35
    static let logSoftmax: UInt8 = 36
    static let maximumMinimum: UInt8 = 39
    static let neg: UInt8 = 42
    static let slice: UInt8 = 48
    static let expandDims: UInt8 = 52
    static let shape: UInt8 = 55
    static let pack: UInt8 = 59
    static let unpack: UInt8 = 64
    static let resizeNearestNeighbor: UInt8 = 74
    static let leakyReLU: UInt8 = 75
    static let squaredDifference: UInt8 = 76
    static let mirrorPad: UInt8 = 77
    static let abs: UInt8 = 78
    static let splitV: UInt8 = 79
    static let batchMatMul: UInt8 = 101
    static let gelu: UInt8 = 116

    /// Options tables without fields.
    static let empty: Set<UInt8> = [transpose, exp, logSoftmax, maximumMinimum, neg, slice, expandDims,
                                    squaredDifference, abs]
}

extension FlatBufferReader {
    /// Decodes the options of the general-purpose operators (FULLY_CONNECTED, SOFTMAX, SPLIT, ...); any other
    /// table is `.other`. A union type with no table is read as the table with every field at its default.
    func generalBuiltinOptions(type: UInt8, table t: Table?) throws(TFLiteError) -> BuiltinOptions {
        switch type {
        case GeneralOptionsType.fullyConnected:
            return .fullyConnected(FullyConnectedOptions(
                activation: try activation(t, 0), weightsFormat: Int(try byte(t, 1, "weights_format")),
                keepNumDims: try bool(t, 2, "keep_num_dims")))
        case GeneralOptionsType.softmax:
            return .softmax(beta: try float(t, 0, "beta", 0))
        case GeneralOptionsType.sub:
            return .sub(activation: try activation(t, 0))
        case GeneralOptionsType.div:
            return .div(activation: try activation(t, 0))
        case GeneralOptionsType.resizeNearestNeighbor:
            return .resizeNearestNeighbor(ResizeBilinearOptions(
                alignCorners: try bool(t, 0, "align_corners"), halfPixelCenters: try bool(t, 1, "half_pixel_centers")))
        case GeneralOptionsType.leakyReLU:
            return .leakyReLU(alpha: try float(t, 0, "alpha", 0))
        case GeneralOptionsType.squeeze:
            guard let t else { return .squeeze(dimensions: []) }
            return .squeeze(dimensions: try integers(t, 0, "squeeze_dims", as: Int32.self, limit: 16) ?? [])
        case GeneralOptionsType.gather:
            return .gather(axis: try int(t, 0, "axis", 0), batchDimensions: try int(t, 1, "batch_dims", 0))
        case GeneralOptionsType.mirrorPad:
            let raw = try byte(t, 0, "mode")
            guard let mode = MirrorPadMode(rawValue: raw) else {
                throw TFLiteError.invalidValue(path: (t?.path ?? "MirrorPadOptions") + ".mode",
                                               reason: "unknown mirror pad mode \(raw)")
            }
            return .mirrorPad(mode)
        case GeneralOptionsType.split, GeneralOptionsType.splitV:
            return .split(count: try int(t, 0, "num_splits", 0))
        case GeneralOptionsType.pack:
            return .pack(count: try int(t, 0, "values_count", 0), axis: try int(t, 1, "axis", 0))
        case GeneralOptionsType.unpack:
            return .unpack(count: try int(t, 0, "num", 0), axis: try int(t, 1, "axis", 0))
        case GeneralOptionsType.batchMatMul:
            return .batchMatMul(adjointX: try bool(t, 0, "adj_x"), adjointY: try bool(t, 1, "adj_y"))
        case GeneralOptionsType.gelu:
            return .gelu(approximate: try bool(t, 0, "approximate"))
        case GeneralOptionsType.shape:
            return .shape(outputType: TensorType(rawValue: try byte(t, 0, "out_type")))
        case let type where GeneralOptionsType.empty.contains(type):
            return .empty(unionType: type)
        default:
            return .other(unionType: type)
        }
    }
}
