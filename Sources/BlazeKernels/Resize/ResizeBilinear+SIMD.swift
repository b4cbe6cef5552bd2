import BlazeKernelParameters

extension ResizeBilinear {
    /// Vectorized over channels with the coordinate tables built at creation (`Microkernels.resizeBilinear` on
    /// `instructionSet`). Same operations in the same order as the reference, so the results are bit-identical.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let i = inputShape, o = outputShape
        let resize = instructionSet.microkernels.window.resizeBilinear
        let table = UnsafePointer(indices.pointer)
        let lerp = UnsafePointer(fractions.pointer)
        for b in 0..<o.n {
            resize(ResizeBilinearArguments(
                input: input + b * i.h * i.w * i.c, inputWidth: i.w, channels: i.c, output: output + b * o.h * o.w * o.c,
                outputHeight: o.h, outputWidth: o.w, table: table, lerp: lerp, outputRows: 0..<o.h))
        }
    }
}
