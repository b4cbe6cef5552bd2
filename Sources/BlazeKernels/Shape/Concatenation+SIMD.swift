extension Concatenation {
    /// Block copies: for each outer index, each input's contiguous `inner_i` floats in turn.
    func runSIMD(inputs: UnsafeBufferPointer<UnsafePointer<Float>>, output: UnsafeMutablePointer<Float>) {
        let inner = UnsafePointer(innerSizes.pointer)
        let count = inputShapes.count
        let clamps = activation != .none
        let (lo, hi) = activation.bounds
        let lower = Vec8(repeating: lo), upper = Vec8(repeating: hi)
        var out = output
        for outer in 0..<outerCount {
            for i in 0..<count {
                let size = inner[i]
                let source = inputs[i] + outer * size
                if clamps {
                    var j = 0
                    while j + 8 <= size {
                        store8(clamp(load8(source + j), lower, upper), out + j)
                        j += 8
                    }
                    while j < size {
                        out[j] = clamp(source[j], lo, hi)
                        j += 1
                    }
                } else {
                    out.update(from: source, count: size)
                }
                out += size
            }
        }
    }
}
