/// A TFLite builtin operator code (the schema's `BuiltinOperator` enum).
///
/// A struct so that codes this library does not name still load and can be reported by name or number.
public struct BuiltinOperator: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The schema's value; codes this library does not name are kept as they are.
    public let rawValue: Int32
    /// Wraps any schema value, known or not.
    /// - Parameter rawValue: the effective operator code (see `OperatorCode.builtinCode`).
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `ADD`.
    public static let add = BuiltinOperator(rawValue: 0)
    /// `AVERAGE_POOL_2D`.
    public static let averagePool2D = BuiltinOperator(rawValue: 1)
    /// `CONCATENATION`.
    public static let concatenation = BuiltinOperator(rawValue: 2)
    /// `CONV_2D`.
    public static let conv2D = BuiltinOperator(rawValue: 3)
    /// `DEPTHWISE_CONV_2D`.
    public static let depthwiseConv2D = BuiltinOperator(rawValue: 4)
    /// `DEPTH_TO_SPACE`.
    public static let depthToSpace = BuiltinOperator(rawValue: 5)
    /// `DEQUANTIZE` (float16 or int8/uint8 to float32).
    public static let dequantize = BuiltinOperator(rawValue: 6)
    /// `FULLY_CONNECTED`.
    public static let fullyConnected = BuiltinOperator(rawValue: 9)
    /// `LOGISTIC` (the sigmoid).
    public static let logistic = BuiltinOperator(rawValue: 14)
    /// `MAX_POOL_2D`.
    public static let maxPool2D = BuiltinOperator(rawValue: 17)
    /// `MUL`.
    public static let mul = BuiltinOperator(rawValue: 18)
    /// `RELU`.
    public static let relu = BuiltinOperator(rawValue: 19)
    /// `RELU_N1_TO_1`.
    public static let reluN1To1 = BuiltinOperator(rawValue: 20)
    /// `RELU6`.
    public static let relu6 = BuiltinOperator(rawValue: 21)
    /// `RESHAPE`.
    public static let reshape = BuiltinOperator(rawValue: 22)
    /// `RESIZE_BILINEAR`.
    public static let resizeBilinear = BuiltinOperator(rawValue: 23)
    /// `CUSTOM` (a custom operator, named by its operator code's `customCode`).
    public static let custom = BuiltinOperator(rawValue: 32)
    /// `PAD`.
    public static let pad = BuiltinOperator(rawValue: 34)
    /// `MEAN` (the mean over some dimensions).
    public static let mean = BuiltinOperator(rawValue: 40)
    /// `STRIDED_SLICE`.
    public static let stridedSlice = BuiltinOperator(rawValue: 45)
    /// `PRELU` (a ReLU with learned slopes for negative values).
    public static let prelu = BuiltinOperator(rawValue: 54)
    /// `HARD_SWISH`.
    public static let hardSwish = BuiltinOperator(rawValue: 117)
    /// `DENSIFY` (a sparse constant to its dense form).
    public static let densify = BuiltinOperator(rawValue: 124)

    /// `SOFTMAX`.
    public static let softmax = BuiltinOperator(rawValue: 25)
    /// `TANH`.
    public static let tanh = BuiltinOperator(rawValue: 28)
    /// `GATHER`.
    public static let gather = BuiltinOperator(rawValue: 36)
    /// `TRANSPOSE`.
    public static let transpose = BuiltinOperator(rawValue: 39)
    /// `SUB`.
    public static let sub = BuiltinOperator(rawValue: 41)
    /// `DIV`.
    public static let div = BuiltinOperator(rawValue: 42)
    /// `SQUEEZE`.
    public static let squeeze = BuiltinOperator(rawValue: 43)
    /// `EXP`.
    public static let exp = BuiltinOperator(rawValue: 47)
    /// `SPLIT`.
    public static let split = BuiltinOperator(rawValue: 49)
    /// `CAST`.
    public static let cast = BuiltinOperator(rawValue: 53)
    /// `MAXIMUM`.
    public static let maximum = BuiltinOperator(rawValue: 55)
    /// `MINIMUM`.
    public static let minimum = BuiltinOperator(rawValue: 57)
    /// `NEG`.
    public static let neg = BuiltinOperator(rawValue: 59)
    /// `SLICE`.
    public static let slice = BuiltinOperator(rawValue: 65)
    /// `EXPAND_DIMS`.
    public static let expandDims = BuiltinOperator(rawValue: 70)
    /// `LOG`.
    public static let log = BuiltinOperator(rawValue: 73)
    /// `SUM`.
    public static let sum = BuiltinOperator(rawValue: 74)
    /// `SQRT`.
    public static let sqrt = BuiltinOperator(rawValue: 75)
    /// `RSQRT`.
    public static let rsqrt = BuiltinOperator(rawValue: 76)
    /// `SHAPE`.
    public static let shape = BuiltinOperator(rawValue: 77)
    /// `REDUCE_PROD`.
    public static let reduceProd = BuiltinOperator(rawValue: 81)
    /// `REDUCE_MAX`.
    public static let reduceMax = BuiltinOperator(rawValue: 82)
    /// `PACK`.
    public static let pack = BuiltinOperator(rawValue: 83)
    /// `UNPACK`.
    public static let unpack = BuiltinOperator(rawValue: 88)
    /// `REDUCE_MIN`.
    public static let reduceMin = BuiltinOperator(rawValue: 89)
    /// `RESIZE_NEAREST_NEIGHBOR`.
    public static let resizeNearestNeighbor = BuiltinOperator(rawValue: 97)
    /// `LEAKY_RELU`.
    public static let leakyRelu = BuiltinOperator(rawValue: 98)
    /// `SQUARED_DIFFERENCE`.
    public static let squaredDifference = BuiltinOperator(rawValue: 99)
    /// `MIRROR_PAD`.
    public static let mirrorPad = BuiltinOperator(rawValue: 100)
    /// `ABS`.
    public static let abs = BuiltinOperator(rawValue: 101)
    /// `SPLIT_V`.
    public static let splitV = BuiltinOperator(rawValue: 102)
    /// `BATCH_MATMUL`.
    public static let batchMatMul = BuiltinOperator(rawValue: 126)
    /// `FLOOR_DIV`.
    public static let floorDiv = BuiltinOperator(rawValue: 90)
    /// `GELU`.
    public static let gelu = BuiltinOperator(rawValue: 150)

    /// The schema's name for this operator, such as `DEPTHWISE_CONV_2D`, or `BUILTIN_<n>` for codes
    /// past the table below.
    public var name: String {
        rawValue >= 0 && Int(rawValue) < Self.names.count ? Self.names[Int(rawValue)] : "BUILTIN_\(rawValue)"
    }

    /// The schema's name, as `name`.
    public var description: String { name }

    // Names of the schema's BuiltinOperator values, in order from 0 (facts from TensorFlow's schema.fbs).
    static let names: [String] = [
        "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE",
        "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION",
        "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D",
        "MUL", "RELU", "RELU_N1_TO_1", "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX",
        "SPACE_TO_DEPTH", "SVDF", "TANH", "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL", "CUSTOM",
        "EMBEDDING_LOOKUP_SPARSE", "PAD", "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER", "BATCH_TO_SPACE_ND",
        "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB", "DIV", "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM",
        "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN", "EXP", "TOPK_V2", "SPLIT", "LOG_SOFTMAX", "DELEGATE",
        "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU", "MAXIMUM", "ARG_MAX", "MINIMUM", "LESS", "NEG",
        "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL", "SELECT", "SLICE", "SIN", "TRANSPOSE_CONV",
        "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL", "NOT_EQUAL", "LOG", "SUM", "SQRT", "RSQRT",
        "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT", "REDUCE_PROD", "REDUCE_MAX", "PACK", "LOGICAL_OR",
        "ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT", "UNPACK", "REDUCE_MIN", "FLOOR_DIV", "REDUCE_ANY",
        "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD", "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU",
        "SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N",
        "GATHER_ND", "COS", "WHERE", "RANK", "ELU", "REVERSE_SEQUENCE", "MATRIX_DIAG", "QUANTIZE",
        "MATRIX_SET_DIAG", "ROUND", "HARD_SWISH", "IF", "WHILE", "NON_MAX_SUPPRESSION_V4",
        "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2", "DENSIFY", "SEGMENT_SUM", "BATCH_MATMUL",
        "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM", "CALL_ONCE", "BROADCAST_TO", "RFFT2D", "CONV_3D",
        "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE", "HASHTABLE_FIND", "HASHTABLE_IMPORT", "HASHTABLE_SIZE",
        "REDUCE_ALL", "CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE",
        "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM", "MULTINOMIAL", "GELU",
        "DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1", "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX",
        "UNSORTED_SEGMENT_SUM", "ATAN2", "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST", "BITWISE_XOR",
        "RIGHT_SHIFT",
    ]
}
