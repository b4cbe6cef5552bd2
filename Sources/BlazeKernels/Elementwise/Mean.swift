/// The mean over a set of axes of a 4-D tensor (TFLite's float `MEAN`): each output element is the sum of
/// its input elements in row-major order, divided by their count, as TFLite's reference does.
///
/// The output keeps the reduced axes with size 1 (`keep_dims`); without `keep_dims` the same floats are laid
/// out alike, so the runtime only checks the declared shape.
///
/// Implementations (see `KernelVariant`):
/// - `.reference`: a scalar loop per output element.
/// - `.simd` (and `.automatic`; `.blas` falls back to it) when the channels are kept: each output pixel's
///   channels as vectors of 8, summed over the reduced positions in the same order, so the same bits as the
///   reference. A mean over the channels runs the reference.
///
/// Aliasing: `output` must not overlap `input`.
/// Thread safety: immutable after creation; `run` may be called concurrently with distinct outputs.
package struct Mean: Sendable {
    package let inputShape: Shape4
    /// The reduced axes of the 4-D shape (0 = n, 1 = h, 2 = w, 3 = c).
    package let axes: Set<Int>
    /// The input shape with each reduced axis of size 1.
    package let outputShape: Shape4
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    package let instructionSet: KernelInstructionSet

    /// The reduced axes among n, h, w as the SIMD path's three nested loops `(count, stride)`, outermost
    /// first, padded with loops of one position.
    let loops: (Int, Int, Int, Int, Int, Int)

    /// - Parameters:
    ///   - inputShape: The input's shape (lower ranks padded with leading 1s).
    ///   - axes: Reduced axes of the 4-D shape, each in 0...3 (an empty set copies the input).
    ///   - variant: The implementation; see the type's documentation.
    ///   - instructionSet: The instruction set of the `.simd` kernel; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError.invalidShape` for a dimension that is not positive or an axis outside 0...3.
    package init(inputShape: Shape4, axes: Set<Int>, variant: KernelVariant = .automatic,
                instructionSet: KernelInstructionSet? = nil) throws(KernelError) {
        let s = inputShape
        guard s.n > 0, s.h > 0, s.w > 0, s.c > 0 else {
            throw .invalidShape("input \(s) has a dimension that is not positive")
        }
        guard axes.allSatisfy({ (0...3).contains($0) }) else {
            throw .invalidShape("axes \(axes.sorted()) are not all in 0...3")
        }
        self.inputShape = s
        self.axes = axes
        self.outputShape = Shape4(n: axes.contains(0) ? 1 : s.n, h: axes.contains(1) ? 1 : s.h,
                                  w: axes.contains(2) ? 1 : s.w, c: axes.contains(3) ? 1 : s.c)
        self.variant = variant == .reference || axes.contains(3) ? .reference : .simd
        let sizes = [s.n, s.h, s.w], strides = [s.h * s.w * s.c, s.w * s.c, s.c]
        var loops: [(Int, Int)] = (0..<3).filter { axes.contains($0) }.map { (sizes[$0], strides[$0]) }
        while loops.count < 3 { loops.insert((1, 0), at: 0) }
        self.loops = (loops[0].0, loops[0].1, loops[1].0, loops[1].1, loops[2].0, loops[2].1)
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
    }

    /// The number of input elements each output element averages.
    package var reducedCount: Int { inputShape.count / outputShape.count }

    /// Computes the means.
    ///
    /// - Parameters:
    ///   - input: `inputShape.count` floats.
    ///   - output: `outputShape.count` floats.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let s = inputShape, o = outputShape
        let ns = s.h * s.w * s.c, hs = s.w * s.c, ws = s.c
        let divisor = Float(reducedCount)
        if variant == .simd {
            var pixel = 0
            for b in 0..<o.n {
                for y in 0..<o.h {
                    for x in 0..<o.w {
                        let base = input + b * ns + y * hs + x * ws
                        instructionSet.microkernels.window.mean(base, s.c, loops, divisor, output + pixel * s.c)
                        pixel += 1
                    }
                }
            }
            return
        }
        // The reference: for each output element, its inputs in row-major order.
        let rn = axes.contains(0) ? s.n : 1, rh = axes.contains(1) ? s.h : 1
        let rw = axes.contains(2) ? s.w : 1, rc = axes.contains(3) ? s.c : 1
        var index = 0
        for b in 0..<o.n {
            for y in 0..<o.h {
                for x in 0..<o.w {
                    for c in 0..<o.c {
                        var sum: Float = 0
                        for i in 0..<rn {
                            for j in 0..<rh {
                                for k in 0..<rw {
                                    let row = input + (b + i) * ns + (y + j) * hs + (x + k) * ws + c
                                    for l in 0..<rc { sum += row[l] }
                                }
                            }
                        }
                        output[index] = sum / divisor
                        index += 1
                    }
                }
            }
        }
    }
}

extension Mean: UnaryStepKernel, VariantKernel {}
