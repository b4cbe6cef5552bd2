extension DepthToSpace {
    /// For each input pixel and block row `by`, input channels `by·b·C' ..< (by + 1)·b·C'` are the output
    /// pixels `x·b ..< x·b + b` of row `y·b + by`, contiguous in both: one copy of `b·C'` floats.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let i = inputShape, o = outputShape, b = blockSize
        let run = b * o.c
        var source = input
        for n in 0..<i.n {
            for y in 0..<i.h {
                for x in 0..<i.w {
                    for by in 0..<b {
                        let destination = output + ((n * o.h + y * b + by) * o.w + x * b) * o.c
                        destination.update(from: source + by * run, count: run)
                    }
                    source += i.c
                }
            }
        }
    }
}
