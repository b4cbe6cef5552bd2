/// The element type of a tensor (TFLite's `TensorType` enum; values are the schema's).
///
/// A struct rather than an enum so that a model with a type this library does not know still loads;
/// the interpreter rejects such tensors with a clear error.
public struct TensorType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The schema's value; types this library does not name are kept as they are.
    public let rawValue: Int8
    /// Wraps any schema value, known or not.
    /// - Parameter rawValue: the tensor's `type` byte.
    public init(rawValue: Int8) { self.rawValue = rawValue }

    /// `FLOAT32`: 32-bit IEEE float, the type of every activation this library's interpreter runs.
    public static let float32 = TensorType(rawValue: 0)
    /// `FLOAT16`: 16-bit IEEE float (weights, dequantized at load time).
    public static let float16 = TensorType(rawValue: 1)
    /// `INT32`: 32-bit signed integer (shapes, indices).
    public static let int32 = TensorType(rawValue: 2)
    /// `UINT8`: 8-bit unsigned integer (quantized weights).
    public static let uint8 = TensorType(rawValue: 3)
    /// `INT64`: 64-bit signed integer.
    public static let int64 = TensorType(rawValue: 4)
    /// `STRING`: variable-length strings.
    public static let string = TensorType(rawValue: 5)
    /// `BOOL`: booleans, one byte each.
    public static let bool = TensorType(rawValue: 6)
    /// `INT16`: 16-bit signed integer.
    public static let int16 = TensorType(rawValue: 7)
    /// `COMPLEX64`: complex numbers of two 32-bit floats.
    public static let complex64 = TensorType(rawValue: 8)
    /// `INT8`: 8-bit signed integer (quantized weights).
    public static let int8 = TensorType(rawValue: 9)
    /// `FLOAT64`: 64-bit IEEE float.
    public static let float64 = TensorType(rawValue: 10)
    /// `COMPLEX128`: complex numbers of two 64-bit floats.
    public static let complex128 = TensorType(rawValue: 11)
    /// `UINT64`: 64-bit unsigned integer.
    public static let uint64 = TensorType(rawValue: 12)
    /// `RESOURCE`: a resource handle (variables).
    public static let resource = TensorType(rawValue: 13)
    /// `VARIANT`: a variant (TensorFlow's `tf.variant`).
    public static let variant = TensorType(rawValue: 14)
    /// `UINT32`: 32-bit unsigned integer.
    public static let uint32 = TensorType(rawValue: 15)
    /// `UINT16`: 16-bit unsigned integer.
    public static let uint16 = TensorType(rawValue: 16)
    /// `INT4`: 4-bit signed integer, two per byte.
    public static let int4 = TensorType(rawValue: 17)

    private static let names = [
        "FLOAT32", "FLOAT16", "INT32", "UINT8", "INT64", "STRING", "BOOL", "INT16", "COMPLEX64", "INT8",
        "FLOAT64", "COMPLEX128", "UINT64", "RESOURCE", "VARIANT", "UINT32", "UINT16", "INT4",
    ]

    /// The schema's name for this type, such as `FLOAT32`.
    public var name: String {
        rawValue >= 0 && Int(rawValue) < Self.names.count ? Self.names[Int(rawValue)] : "TYPE_\(rawValue)"
    }

    /// The schema's name, as `name`.
    public var description: String { name }

    /// Bytes per element for fixed-size types; nil for strings, resources, variants and sub-byte types.
    public var byteSize: Int? {
        switch self {
        case .float32, .int32, .uint32: return 4
        case .float16, .int16, .uint16: return 2
        case .uint8, .int8, .bool: return 1
        case .int64, .uint64, .float64, .complex64: return 8
        case .complex128: return 16
        default: return nil
        }
    }
}
