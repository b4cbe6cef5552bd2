// The row loop shared by elementwise addition and multiplication: one IEEE single operation per element, in a
// fixed operand order, 8-float vectors with partial vectors at the ends (never touching memory outside).

import BlazeKernelParameters

/// An elementwise binary operation of `Microkernels.binaryRow`, as IEEE single operations. Each conformer
/// fixes its operand order, which decides only a NaN's payload when both operands are NaN.
protocol BinaryRowOperation {
    /// `a ∘ b` lane by lane.
    static func apply(_ a: Vec8, _ b: Vec8) -> Vec8

    /// `a ∘ b` on one element.
    static func apply(_ a: Float, _ b: Float) -> Float

    /// A row of one operand against one value of the other, splatted: `row` holds operand `a`'s elements
    /// when `rowIsLeft`, else operand `b`'s.
    static func apply(row: Vec8, splat: Vec8, rowIsLeft: Bool) -> Vec8
}

/// `a + b`, in that order everywhere.
enum RowAddition: BinaryRowOperation {
    @inline(__always) static func apply(_ a: Vec8, _ b: Vec8) -> Vec8 { a + b }
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a + b }
    @inline(__always) static func apply(row: Vec8, splat: Vec8, rowIsLeft: Bool) -> Vec8 {
        rowIsLeft ? row + splat : splat + row
    }
}

/// `a · b`; against a splatted value, `row · value` whichever operand the row is (the order MUL has always
/// had there).
enum RowMultiplication: BinaryRowOperation {
    @inline(__always) static func apply(_ a: Vec8, _ b: Vec8) -> Vec8 { a * b }
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a * b }
    @inline(__always) static func apply(row: Vec8, splat: Vec8, rowIsLeft: Bool) -> Vec8 { row * splat }
}

extension BinaryRowOperation {
    /// Same-shape `output[i] = clamp(lhs[i] ∘ rhs[i])` for `i < count` (the table's `add` and `multiply`);
    /// `output` may equal `lhs` or `rhs`.
    static func sameShape(
        count: Int, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        bounds: OutputBounds
    ) {
        let lower = Vec8(repeating: bounds.lower), upper = Vec8(repeating: bounds.upper)
        Microkernels.binaryRow(Self.self, lhs, 1, rhs, 1, output, count: count, lower, upper)
    }
}

extension Microkernels {
    /// `out[i] = clamp(a[i·aStride] ∘ b[i·bStride])` for `i < count`, strides 0 (splat) or 1, with the
    /// operation `Operation` (specialized at each call: the operations are inlined).
    @inline(__always)
    static func binaryRow<Operation: BinaryRowOperation>(
        _: Operation.Type, _ a: UnsafePointer<Float>, _ aStride: Int, _ b: UnsafePointer<Float>, _ bStride: Int,
        _ out: UnsafeMutablePointer<Float>, count: Int, _ lower: Vec8, _ upper: Vec8
    ) {
        var i = 0
        switch (aStride, bStride) {
        case (1, 1):
            while i + 16 <= count {
                let r0 = Operation.apply(load8(a + i), load8(b + i))
                let r1 = Operation.apply(load8(a + i + 8), load8(b + i + 8))
                store8(clamp(r0, lower, upper), out + i)
                store8(clamp(r1, lower, upper), out + i + 8)
                i += 16
            }
            while i + 8 <= count {
                store8(clamp(Operation.apply(load8(a + i), load8(b + i)), lower, upper), out + i)
                i += 8
            }
            if i < count {
                let n = count - i
                storePartial(
                    clamp(Operation.apply(loadPartial(a + i, n), loadPartial(b + i, n)), lower, upper), out + i, n)
            }
            return
        case (0, 1), (1, 0):
            // One operand splatted: a scalar, or one value per row.
            let rowIsLeft = aStride == 1
            let (row, scalar) = rowIsLeft ? (a, b[0]) : (b, a[0])
            let v = Vec8(repeating: scalar)
            while i + 8 <= count {
                let result = Operation.apply(row: load8(row + i), splat: v, rowIsLeft: rowIsLeft)
                store8(clamp(result, lower, upper), out + i)
                i += 8
            }
            if i < count {
                let n = count - i
                let result = Operation.apply(row: loadPartial(row + i, n), splat: v, rowIsLeft: rowIsLeft)
                storePartial(clamp(result, lower, upper), out + i, n)
            }
            return
        default:
            break
        }
        while i < count {
            out[i] = clamp(Operation.apply(a[i * aStride], b[i * bStride]), lower[0], upper[0])
            i += 1
        }
    }
}
