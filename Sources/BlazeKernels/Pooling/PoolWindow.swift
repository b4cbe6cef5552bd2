extension WindowGeometry {
    /// Validates pooling parameters and computes the geometry (no dilation), throwing instead of trapping.
    static func pooling(
        inputShape: Shape4, filterH: Int, filterW: Int, strideH: Int, strideW: Int, padding: Padding
    ) throws(KernelError) -> WindowGeometry {
        try inputShape.validate("input")
        guard filterH > 0, filterW > 0 else {
            throw .invalidParameter("pooling filter \(filterH)x\(filterW) must be positive")
        }
        guard strideH > 0, strideW > 0 else {
            throw .invalidParameter("stride \(strideH)x\(strideW) must be positive")
        }
        guard let geometry = WindowGeometry(
            inputH: inputShape.h, inputW: inputShape.w, kernelH: filterH, kernelW: filterW,
            strideH: strideH, strideW: strideW, padding: padding)
        else {
            throw .invalidShape("a \(filterH)x\(filterW) window gives an empty output on a "
                + "\(inputShape.h)x\(inputShape.w) input (padding \(padding))")
        }
        return geometry
    }

    /// The in-bounds part of output row `oy`'s window: input rows `start ..< end` (possibly empty).
    @inline(__always)
    func rowRange(_ oy: Int, inputH: Int) -> (start: Int, end: Int) {
        let origin = oy * strideH - padTop
        return (Swift.max(origin, 0), Swift.min(origin + kernelH, inputH))
    }

    /// The in-bounds part of output column `ox`'s window: input columns `start ..< end` (possibly empty).
    @inline(__always)
    func columnRange(_ ox: Int, inputW: Int) -> (start: Int, end: Int) {
        let origin = ox * strideW - padLeft
        return (Swift.max(origin, 0), Swift.min(origin + kernelW, inputW))
    }
}
