// Means over axes (TFLite's MEAN): each output channel run is a sum over up to three nested strided loops of
// input positions, in row-major order, then one division by the count: per element the same additions in
// the same order as the scalar reference, so the same bits. Vectors of 8 channels; a partial vector at the end.

extension Microkernels {
    /// `output[c] = (Σ input[i·s0 + j·s1 + k·s2 + c] over i < n0, j < n1, k < n2, in that nesting) / divisor`
    /// for `c < channels`, with `reduced = (n0, s0, n1, s1, n2, s2)` (counts at least 1, strides in floats).
    package static func mean(
        input: UnsafePointer<Float>, channels: Int, reduced: (Int, Int, Int, Int, Int, Int), divisor: Float,
        output: UnsafeMutablePointer<Float>
    ) {
        let (n0, s0, n1, s1, n2, s2) = reduced
        let d = Vec8(repeating: divisor)
        var c = 0
        while c < channels {
            let lanes = min(8, channels - c)
            var sum = Vec8(repeating: 0)
            for i in 0..<n0 {
                for j in 0..<n1 {
                    var p = input + i * s0 + j * s1 + c
                    for _ in 0..<n2 {
                        sum += lanes == 8 ? load8(p) : loadPartial(p, lanes)
                        p += s2
                    }
                }
            }
            if lanes == 8 { store8(sum / d, output + c) } else { storePartial(sum / d, output + c, lanes) }
            c += 8
        }
    }
}
