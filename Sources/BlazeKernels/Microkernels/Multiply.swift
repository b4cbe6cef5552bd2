// Elementwise multiplication (TFLite's MUL): memory-bound flat loops over 8-float vectors, partial vectors at
// the ends (never touching memory outside the tensors). The products are IEEE single multiplications, one per
// element, with no fused multiply-add: the same bits as a scalar `a * b` and as LiteRT's float MUL. The row loop is
// `binaryRow` (BinaryRow.swift), shared with addition.

import BlazeKernelParameters

extension Microkernels {
    /// Broadcast multiplication over a 4-D output `[n, h, w, c]` (`broadcastRows`).
    package static func multiplyBroadcast(_ a: BroadcastArguments) { broadcastRows(a, RowMultiplication.self) }
}
