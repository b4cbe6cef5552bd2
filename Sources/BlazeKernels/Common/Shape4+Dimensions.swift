extension Shape4 {
    /// Creates a 4-D shape from a TFLite shape of rank 0...4, padding it with leading 1s
    /// (`[H, W, C]` becomes `[1, H, W, C]`, `[C]` becomes `[1, 1, 1, C]`).
    ///
    /// - Parameter dimensions: The dimensions, outermost first. Each must be positive.
    /// - Throws: `KernelError.invalidShape` for a rank above 4 or a dimension that is not positive.
    package init(dimensions: [Int]) throws(KernelError) {
        guard dimensions.count <= 4 else {
            throw .invalidShape("rank \(dimensions.count) shape \(dimensions); at most 4 dimensions are supported")
        }
        guard dimensions.allSatisfy({ $0 > 0 }) else {
            throw .invalidShape("shape \(dimensions) has a dimension that is not positive")
        }
        let padded = Array(repeating: 1, count: 4 - dimensions.count) + dimensions
        self.init(n: padded[0], h: padded[1], w: padded[2], c: padded[3])
    }

    /// The dimensions as an array `[n, h, w, c]`.
    package var dimensions: [Int] { [n, h, w, c] }

    /// Whether every dimension is positive.
    package var isValid: Bool { n > 0 && h > 0 && w > 0 && c > 0 }

    /// Throws `KernelError.invalidShape` unless every dimension is positive.
    func validate(_ name: String) throws(KernelError) {
        guard isValid else { throw .invalidShape("\(name) shape \(self) has a dimension that is not positive") }
    }
}
