extension WindowGeometry {
    /// The scalar oracles' output loop (reference implementations only; no fast path uses it): calls
    /// `body(b, oy, ox, pixel)` for every output pixel of `batches` images, in memory order, where `pixel` is
    /// the pixel's index in the output, `(b·outH + oy)·outW + ox`.
    ///
    /// - Parameters:
    ///   - batches: The images.
    ///   - body: Called once per output pixel.
    func forEachReferencePixel(batches: Int, _ body: (_ b: Int, _ oy: Int, _ ox: Int, _ pixel: Int) -> Void) {
        var pixel = 0
        for b in 0..<batches {
            for oy in 0..<outH {
                for ox in 0..<outW {
                    body(b, oy, ox, pixel)
                    pixel += 1
                }
            }
        }
    }

    /// The scalar oracles' window loop (reference implementations only): calls `body(ky, kx, inputPixel)`
    /// for each tap of output pixel `(oy, ox)`'s window that falls inside the input, filter row by filter
    /// row, where `inputPixel` is the tap's pixel index in the input, `(b·inH + iy)·inW + ix`, with
    /// `iy = oy·strideH − padTop + ky·dilationH` (likewise `ix`). Taps outside the input are skipped.
    ///
    /// - Parameters:
    ///   - b: The image.
    ///   - oy: The output row.
    ///   - ox: The output column.
    ///   - inputH: The input's height.
    ///   - inputW: The input's width.
    ///   - body: Called once per in-bounds tap.
    func forEachReferenceTap(
        b: Int, oy: Int, ox: Int, inputH: Int, inputW: Int, _ body: (_ ky: Int, _ kx: Int, _ inputPixel: Int) -> Void
    ) {
        let originY = oy * strideH - padTop
        let originX = ox * strideW - padLeft
        for ky in 0..<kernelH {
            let iy = originY + ky * dilationH
            if iy < 0 || iy >= inputH { continue }
            for kx in 0..<kernelW {
                let ix = originX + kx * dilationW
                if ix < 0 || ix >= inputW { continue }
                body(ky, kx, (b * inputH + iy) * inputW + ix)
            }
        }
    }
}
