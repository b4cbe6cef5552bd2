/// The shape of a 4-D activation tensor in NHWC order (batch, height, width, channels).
///
/// Every kernel in BlazeKernels works on densely packed float32 NHWC data: element `(n, y, x, c)` is at
/// `((n * h + y) * w + x) * c + c`.
package struct Shape4: Hashable, Sendable, CustomStringConvertible {
    package var n: Int
    package var h: Int
    package var w: Int
    package var c: Int

    package init(n: Int = 1, h: Int, w: Int, c: Int) {
        self.n = n
        self.h = h
        self.w = w
        self.c = c
    }

    /// The number of elements.
    package var count: Int { n * h * w * c }

    package var description: String { "[\(n), \(h), \(w), \(c)]" }
}
