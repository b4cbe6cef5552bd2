extension StridedSlice {
    /// The copy plan: trailing axes taken whole (start 0, stride 1, every element) merge with the axis before
    /// them into one contiguous run when that axis has stride 1; the other axes become outer loops (at most
    /// four, outermost first, padded with loops of one) of `step` input floats per element.
    static func runs(_ dims: [Int], _ axes: [Axis]) -> (base: Int, outer: [(count: Int, step: Int)], run: Int) {
        var strides = Array(repeating: 1, count: dims.count)
        for k in stride(from: dims.count - 2, through: 0, by: -1) { strides[k] = strides[k + 1] * dims[k + 1] }
        let base = axes.indices.reduce(0) { $0 + axes[$1].start * strides[$1] }
        var k = axes.count - 1
        var run = 1
        while k >= 0, axes[k].start == 0, axes[k].stride == 1, axes[k].count == dims[k] {
            run *= dims[k]
            k -= 1
        }
        if k >= 0, axes[k].stride == 1 {
            run *= axes[k].count
            k -= 1
        }
        var outer = (0..<(k + 1)).map { (count: axes[$0].count, step: axes[$0].stride * strides[$0]) }
        while outer.count < 5 { outer.insert((count: 1, step: 0), at: 0) }
        return (base, outer, run)
    }

    /// Runs of `run` floats in up to five outer loops.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let o0 = outer[0], o1 = outer[1], o2 = outer[2], o3 = outer[3], o4 = outer[4]
        let run = self.run
        var out = output
        var p0 = input + base
        for _ in 0..<o0.count {
            var p1 = p0
            for _ in 0..<o1.count {
                var p2 = p1
                for _ in 0..<o2.count {
                    var p3 = p2
                    for _ in 0..<o3.count {
                        var p4 = p3
                        if run == 1 {
                            for i in 0..<o4.count { out[i] = p4[i * o4.step] }
                            out += o4.count
                        } else {
                            for _ in 0..<o4.count {
                                out.update(from: p4, count: run)
                                out += run
                                p4 += o4.step
                            }
                        }
                        p3 += o3.step
                    }
                    p2 += o2.step
                }
                p1 += o1.step
            }
            p0 += o0.step
        }
    }
}
