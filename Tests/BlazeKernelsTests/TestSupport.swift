import BlazeKernels
import BlazeTestSupport
import Testing

/// Deterministic pseudo-random floats in [-1, 1).
func randomFloats(_ count: Int, seed: UInt64) -> [Float] {
    var rng = SplitMix64(seed: seed)
    return rng.floats(count)
}

/// Expects `actual ≈ expected` within `relative · max|expected|` per element (fast paths sum in another order).
func expectClose(
    _ actual: [Float], _ expected: [Float], relative: Float = 1e-5, _ context: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.count == expected.count, "\(context()): count", sourceLocation: sourceLocation)
    guard actual.count == expected.count else { return }
    let scale = max(expected.map { abs($0) }.max() ?? 0, 1e-3)
    let tolerance = relative * scale
    var worst: Float = 0
    var worstIndex = -1
    for i in expected.indices {
        let error = abs(actual[i] - expected[i])
        if !(error <= tolerance) && !(error <= worst) {
            worst = error
            worstIndex = i
        }
    }
    #expect(
        worstIndex < 0,
        "\(context()): worst error \(worst) at \(worstIndex) (got \(worstIndex >= 0 ? actual[worstIndex] : 0), expected \(worstIndex >= 0 ? expected[worstIndex] : 0)), tolerance \(tolerance)",
        sourceLocation: sourceLocation)
}

/// Runs `body` on a fresh output buffer of `count` floats (pre-filled with NaN to catch unwritten elements).
func produce(_ count: Int, _ body: (UnsafeMutablePointer<Float>) -> Void) -> [Float] {
    var output = [Float](repeating: .nan, count: count)
    output.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    return output
}

/// Expects a throwing expression to throw exactly `error`.
func expectError<T>(
    _ expected: KernelError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) {
    do {
        _ = try body()
        Issue.record("expected \(expected), got success", sourceLocation: sourceLocation)
    } catch {
        #expect(error as? KernelError == expected, sourceLocation: sourceLocation)
    }
}

/// Expects a throwing expression to throw some `KernelError` (any case).
func expectThrows<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) {
    do {
        _ = try body()
        Issue.record("expected a KernelError, got success", sourceLocation: sourceLocation)
    } catch {
        #expect(error is KernelError, sourceLocation: sourceLocation)
    }
}

let allActivations: [FusedActivation] = [.none, .relu, .relu6, .reluN1To1]

// MARK: - Array conveniences for the kernels

extension Conv2D {
    func apply(_ input: [Float]) -> [Float] {
        produce(outputShape.count) { out in input.withUnsafeBufferPointer { run(input: $0.baseAddress!, output: out) } }
    }
}

extension PointwiseConv2D {
    func apply(_ input: [Float]) -> [Float] {
        produce(outputShape.count) { out in input.withUnsafeBufferPointer { run(input: $0.baseAddress!, output: out) } }
    }
}

extension DepthwiseConv2D {
    func apply(_ input: [Float]) -> [Float] {
        produce(outputShape.count) { out in input.withUnsafeBufferPointer { run(input: $0.baseAddress!, output: out) } }
    }
}

extension MaxPool2D {
    func apply(_ input: [Float]) -> [Float] {
        produce(outputShape.count) { out in input.withUnsafeBufferPointer { run(input: $0.baseAddress!, output: out) } }
    }
}

extension AveragePool2D {
    func apply(_ input: [Float]) -> [Float] {
        produce(outputShape.count) { out in input.withUnsafeBufferPointer { run(input: $0.baseAddress!, output: out) } }
    }
}

extension Pad {
    func apply(_ input: [Float]) -> [Float] {
        produce(outputShape.count) { out in input.withUnsafeBufferPointer { run(input: $0.baseAddress!, output: out) } }
    }
}

extension DepthToSpace {
    func apply(_ input: [Float]) -> [Float] {
        produce(outputShape.count) { out in input.withUnsafeBufferPointer { run(input: $0.baseAddress!, output: out) } }
    }
}

extension ResizeBilinear {
    func apply(_ input: [Float]) -> [Float] {
        produce(outputShape.count) { out in input.withUnsafeBufferPointer { run(input: $0.baseAddress!, output: out) } }
    }
}

extension PReLU {
    func apply(_ input: [Float]) -> [Float] {
        produce(outputShape.count) { out in input.withUnsafeBufferPointer { run(input: $0.baseAddress!, output: out) } }
    }
}

extension Activation {
    func apply(_ input: [Float]) -> [Float] {
        produce(count) { out in input.withUnsafeBufferPointer { run(input: $0.baseAddress!, output: out) } }
    }
}

extension Add {
    func apply(_ lhs: [Float], _ rhs: [Float]) -> [Float] {
        produce(outputShape.count) { out in
            lhs.withUnsafeBufferPointer { l in
                rhs.withUnsafeBufferPointer { r in run(lhs: l.baseAddress!, rhs: r.baseAddress!, output: out) }
            }
        }
    }
}

extension Concatenation {
    func apply(_ inputs: [[Float]]) -> [Float] {
        // Copy the inputs into one buffer so the pointers stay valid for the call.
        let offsets = inputs.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        let joined = inputs.flatMap { $0 }
        return produce(outputShape.count) { out in
            joined.withUnsafeBufferPointer { base in
                let pointers = offsets.dropLast().map { base.baseAddress! + $0 }
                pointers.withUnsafeBufferPointer { run(inputs: $0, output: out) }
            }
        }
    }
}
