extension ResizeBilinear {
    /// The scalar oracle: TFLite's reference, expression for expression.
    func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let i = inputShape, o = outputShape
        var index = 0
        for b in 0..<o.n {
            for y in 0..<o.h {
                let (inputY, y0, y1) = ResizeBilinear.interpolation(
                    y, scale: heightScale, halfPixelCenters: halfPixelCenters, inputSize: i.h)
                for x in 0..<o.w {
                    let (inputX, x0, x1) = ResizeBilinear.interpolation(
                        x, scale: widthScale, halfPixelCenters: halfPixelCenters, inputSize: i.w)
                    let dy = inputY - Float(y0), dx = inputX - Float(x0)
                    for c in 0..<o.c {
                        let v00 = input[((b * i.h + y0) * i.w + x0) * i.c + c]
                        let v10 = input[((b * i.h + y1) * i.w + x0) * i.c + c]
                        let v01 = input[((b * i.h + y0) * i.w + x1) * i.c + c]
                        let v11 = input[((b * i.h + y1) * i.w + x1) * i.c + c]
                        let top = v00 * (1 - dy) * (1 - dx) + v10 * dy * (1 - dx)
                        output[index] = top + v01 * (1 - dy) * dx + v11 * dy * dx
                        index += 1
                    }
                }
            }
        }
    }
}
