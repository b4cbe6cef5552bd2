extension Concatenation {
    /// The scalar oracle: each input element goes to its 4-D position, shifted along the axis by the sizes
    /// of the inputs before it.
    func runReference(inputs: UnsafeBufferPointer<UnsafePointer<Float>>, output: UnsafeMutablePointer<Float>) {
        let o = outputShape
        let (lower, upper) = activation.bounds
        var offset = 0
        for (i, shape) in inputShapes.enumerated() {
            let input = inputs[i]
            var index = 0
            for b in 0..<shape.n {
                for y in 0..<shape.h {
                    for x in 0..<shape.w {
                        for c in 0..<shape.c {
                            var p = (b, y, x, c)
                            switch axis4 {
                            case 0: p.0 += offset
                            case 1: p.1 += offset
                            case 2: p.2 += offset
                            default: p.3 += offset
                            }
                            output[((p.0 * o.h + p.1) * o.w + p.2) * o.c + p.3] = clamp(input[index], lower, upper)
                            index += 1
                        }
                    }
                }
            }
            switch axis4 {
            case 0: offset += shape.n
            case 1: offset += shape.h
            case 2: offset += shape.w
            default: offset += shape.c
            }
        }
    }
}
