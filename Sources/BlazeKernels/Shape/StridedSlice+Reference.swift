extension StridedSlice {
    /// The scalar oracle: output element `(i0, ..., i4)` (the input's rank padded to 5 with leading axes of
    /// one element) is the input element at `start + i · stride` on every axis.
    func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let lead = 5 - axes.count
        let dims = Array(repeating: 1, count: lead) + inputDimensions
        let a = Array(repeating: Axis(start: 0, stride: 1, count: 1), count: lead) + axes
        var index = 0
        for i0 in 0..<a[0].count {
            for i1 in 0..<a[1].count {
                for i2 in 0..<a[2].count {
                    for i3 in 0..<a[3].count {
                        for i4 in 0..<a[4].count {
                            let p0 = a[0].start + i0 * a[0].stride, p1 = a[1].start + i1 * a[1].stride
                            let p2 = a[2].start + i2 * a[2].stride, p3 = a[3].start + i3 * a[3].stride
                            let p4 = a[4].start + i4 * a[4].stride
                            output[index] = input[(((p0 * dims[1] + p1) * dims[2] + p2) * dims[3] + p3) * dims[4] + p4]
                            index += 1
                        }
                    }
                }
            }
        }
    }
}
