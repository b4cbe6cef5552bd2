import BlazeKernels
import BlazeTFLite

extension Interpreter {
    /// How an interpreter runs a model.
    public struct Options: Sendable, Equatable {
        /// Threads used by `invoke()`, the calling thread included (default 1, the lowest latency for one
        /// stream of frames on a busy machine). Above 1, the interpreter starts `threadCount - 1` worker
        /// threads that split each large convolution, depthwise convolution and elementwise step by output
        /// rows; between steps they spin briefly, then sleep. Results are identical for any thread count.
        /// Must be from 1 to `maximumThreadCount`.
        public var threadCount: Int
        /// Which kernel implementations to use (`.automatic`: the fastest; `.reference`: the scalar oracles).
        public var kernelVariant: KernelVariant
        /// Largest activation arena the interpreter will allocate, in bytes (default 1 GiB).
        public var maximumArenaBytes: Int
        /// Largest total of constant bytes the interpreter derives from the file while loading, in bytes
        /// (default 1 GiB): every constant an operator reads (its weights, which its kernel packs, or a
        /// paddings vector), counted once per reading operator, and every constant folded at load time
        /// (DEQUANTIZE to float32, DENSIFY). Checked before each is made, so that a small file whose operators
        /// all read one large buffer, or dequantize it again and again, cannot claim gigabytes. The catalog's
        /// models need a small multiple of their file size; raise it for larger models of your own.
        public var maximumConstantBytes: Int
        /// Largest number of operators in the main subgraph (default 16,384; the largest model of the catalog,
        /// the attention mesh, has 712). Planning the arena takes time quadratic in the activations, so the
        /// count is checked before anything else is built.
        public var maximumOperatorCount: Int
        /// Largest number of multiply-accumulates one inference may take (default 10^10: about 0.2 s at this
        /// engine's speed, 50 times the largest face model's 0.19 G), checked at load time, so that a hostile
        /// model cannot make `invoke()` run for minutes. Raise it for larger models of your own.
        public var maximumMultiplyAccumulates: Int
        /// With more than one thread, run stretches of the plan that form independent chains of steps
        /// (iris's eye-contour and iris branches) side by side, one chain per thread, when that is estimated
        /// to beat splitting each of their steps across the threads (default true). The results are the same
        /// to the bit.
        public var runBranchesConcurrently: Bool
        /// With one thread, find bands of identical rows at the top and bottom of each input (a letterboxed
        /// picture's padding) at every `invoke()`, and compute an output row that depends only on identical
        /// rows once, copying it over its band, layer after layer while the bands last (default true). The
        /// results are the same to the bit; the scan costs a comparison of two rows when there is no band.
        public var reuseRepeatedRows: Bool
        /// The load-time fusions to run (default: all). Package-level, for tests and benchmarks: each keeps the
        /// numbers, so users have no reason to turn one off.
        package var fusions: Fusions = .all

        /// The default options with only the load-time fusions `fusions` on (tests and benchmarks).
        package init(fusions: Fusions) {
            self.init()
            self.fusions = fusions
        }

        /// The largest `threadCount` accepted.
        public static let maximumThreadCount = 256

        /// Creates options. Each parameter sets the property of the same name; the defaults (one thread, the
        /// automatic kernel variant, every optimization on, limits of 1 GiB of arena and of constants,
        /// 10^10 multiply-accumulates and 16,384 operators) are what the pipelines use.
        public init(
            threadCount: Int = 1,
            kernelVariant: KernelVariant = .automatic,
            maximumArenaBytes: Int = 1 << 30,
            maximumMultiplyAccumulates: Int = 10_000_000_000,
            maximumConstantBytes: Int = 1 << 30,
            maximumOperatorCount: Int = 16_384,
            runBranchesConcurrently: Bool = true,
            reuseRepeatedRows: Bool = true
        ) {
            self.threadCount = threadCount
            self.kernelVariant = kernelVariant
            self.maximumArenaBytes = maximumArenaBytes
            self.maximumMultiplyAccumulates = maximumMultiplyAccumulates
            self.maximumConstantBytes = maximumConstantBytes
            self.maximumOperatorCount = maximumOperatorCount
            self.runBranchesConcurrently = runBranchesConcurrently
            self.reuseRepeatedRows = reuseRepeatedRows
        }
    }

    /// Name, shape and type of a model input or output.
    public struct TensorInfo: Sendable, Equatable, CustomStringConvertible {
        /// The tensor's name in the model.
        public var name: String
        /// The tensor's shape, outermost dimension first.
        public var shape: [Int]
        /// The element type (always `.float32` for tensors the interpreter exposes).
        public var dataType: TensorType
        /// The tensor's index in the model's main subgraph.
        public var tensorIndex: Int

        /// Number of elements.
        public var elementCount: Int {
            // An index loop: `reduce` allocates in unoptimized builds, and this runs on every frame.
            var count = 1
            for i in 0..<shape.count { count *= shape[i] }
            return count
        }
        /// Number of bytes (`elementCount * 4`).
        public var byteCount: Int { elementCount * MemoryLayout<Float>.size }

        /// The name, shape and type, such as `input [1, 128, 128, 3] FLOAT32`.
        public var description: String { "\(name) \(shape) \(dataType)" }
    }
}

extension Interpreter.Options {
    /// The load-time fusions (`GraphBuilder+Fusion.swift`), each of which can be turned off for tests and
    /// benchmarks. All give the unfused outputs to the bit, except `padding`, which gives equal values (a
    /// folded kernel skips the padding taps, so an exact zero sum could change sign). But for `activations`,
    /// the `.reference` kernel variant runs none of them.
    package struct Fusions: OptionSet, Sendable, Hashable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// A RELU, RELU6 or RELU_N1_TO_1 that alone reads a convolution's or ADD's output, as its clamp.
        package static let activations = Fusions(rawValue: 1 << 0)
        /// A BlazeBlock shortcut (PAD of channels, after a 2x2 stride-2 MAX_POOL_2D or not, feeding an ADD) as
        /// one `ResidualAdd` step.
        package static let residuals = Fusions(rawValue: 1 << 1)
        /// A PAD of height and width with zeros as the explicit padding of the VALID convolution that alone
        /// reads it.
        package static let padding = Fusions(rawValue: 1 << 2)
        /// A PRELU with one slope per channel in the epilogue of a GEMM convolution, ADD or shortcut.
        package static let prelu = Fusions(rawValue: 1 << 3)
        /// A same-shape ADD, or an unpooled shortcut, in the epilogue of the 1x1 convolution that writes an
        /// operand.
        package static let adds = Fusions(rawValue: 1 << 4)
        /// A HARD_SWISH in the epilogue of a GEMM or depthwise convolution.
        package static let hardSwish = Fusions(rawValue: 1 << 5)
        /// LOGISTIC and the MUL of its input by it as one SiLU step, and that in a GEMM convolution's epilogue.
        package static let silu = Fusions(rawValue: 1 << 6)

        package static let all: Fusions = [.activations, .residuals, .padding, .prelu, .adds, .hardSwish, .silu]
    }
}
