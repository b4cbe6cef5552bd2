extension DepthToSpace {
    /// The scalar oracle, walking the output as TFLite's reference does.
    func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let i = inputShape, o = outputShape, b = blockSize
        var index = 0
        for n in 0..<o.n {
            for oy in 0..<o.h {
                for ox in 0..<o.w {
                    for c in 0..<o.c {
                        let ic = ((oy % b) * b + ox % b) * o.c + c
                        output[index] = input[((n * i.h + oy / b) * i.w + ox / b) * i.c + ic]
                        index += 1
                    }
                }
            }
        }
    }
}
