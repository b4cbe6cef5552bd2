/// MediaPipe's `TransformLandmarks` (version 2): maps `count` landmarks of `dimensions` floats (2: x, y; 3: x,
/// y, z) through an affine matrix: `x' = m0·x + m1·y + m2·0 + m3`, `y' = m4·x + m5·y + m6·0 + m7` (16 floats,
/// row-major; rows 3 and 4 ignored), z copied unchanged.
///
/// Thread safety: immutable; `run` may be called concurrently with non-overlapping outputs.
package struct TransformLandmarks: Sendable, Equatable {
    package let count: Int
    package let dimensions: Int

    /// - Throws: `KernelError.invalidShape` for a count that is not positive or dimensions other than 2 or 3.
    package init(count: Int, dimensions: Int) throws(KernelError) {
        guard count > 0 else { throw .invalidShape("\(count) landmarks") }
        guard dimensions == 2 || dimensions == 3 else {
            throw .invalidShape("landmarks of \(dimensions) values; MediaPipe supports 2 or 3")
        }
        (self.count, self.dimensions) = (count, dimensions)
    }

    /// - Parameters:
    ///   - landmarks: `count · dimensions` floats.
    ///   - matrix: 16 floats, row-major.
    ///   - output: `count · dimensions` floats, not overlapping `landmarks`.
    package func run(landmarks: UnsafePointer<Float>, matrix: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let (m0, m1, m2, m3) = (matrix[0], matrix[1], matrix[2], matrix[3])
        let (m4, m5, m6, m7) = (matrix[4], matrix[5], matrix[6], matrix[7])
        for i in 0..<count {
            let p = i * dimensions
            let x = landmarks[p], y = landmarks[p + 1]
            output[p] = ((m0 * x + m1 * y) + m2 * 0) + m3 * 1
            output[p + 1] = ((m4 * x + m5 * y) + m6 * 0) + m7 * 1
            if dimensions == 3 { output[p + 2] = landmarks[p + 2] }
        }
    }
}

extension TransformLandmarks: StepKernel {
    package var planDescription: String { "TransformLandmarks.reference" }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(landmarks: inputs[0], matrix: inputs[1], output: output)
    }
}
