/// A person mask: one probability in 0...1 per pixel that the pixel shows a person, rows top first, in the
/// upright image's orientation (after `ImageView.orientation`).
///
/// At the image's resolution (`PersonSegmenter.Resolution.image`) pixel `(x, y)` is the image's upright pixel
/// `(x, y)`. At the model's resolution (`.model`) the mask is the model's output as it is (256x256 or 256x144):
/// it covers the whole image stretched, as the model saw it, so mask pixel `(i, j)` covers the image from
/// `(i · W / w, j · H / h)` to `((i + 1) · W / w, (j + 1) · H / h)`.
public struct SegmentationMask: Hashable, Sendable {
    /// The mask's width, in its pixels (the upright image's, or the model output's).
    public var width: Int
    /// The mask's height, in its pixels.
    public var height: Int
    /// `width · height` values, row-major, top row first.
    public var values: [Float]

    /// A mask of `values`, which should hold `width · height` values (`isConsistent`); the library checks the
    /// masks it is given (`BackgroundReplacementError.invalidMask`) and sizes the ones it writes.
    /// Each parameter sets the property of the same name.
    public init(width: Int, height: Int, values: [Float]) {
        self.width = width
        self.height = height
        self.values = values
    }

    /// An empty mask, to pass to the `into:` calls, which size it.
    public init() {
        self.init(width: 0, height: 0, values: [])
    }

    /// A mask of one value everywhere.
    /// - Parameters:
    ///   - width: the width, in pixels (below 0 counts as 0 for the values).
    ///   - height: the height, in pixels (below 0 counts as 0 for the values).
    ///   - value: every pixel's probability.
    public init(width: Int, height: Int, repeating value: Float) {
        self.init(width: width, height: height, values: [Float](repeating: value, count: max(width, 0) * max(height, 0)))
    }

    /// The value at pixel `(x, y)` (both within the mask: an index out of range traps, as an array's does).
    /// - Parameters:
    ///   - x: the column, 0..<width.
    ///   - y: the row, 0..<height, top first.
    /// - Returns: the probability there, read or written.
    public subscript(x x: Int, y y: Int) -> Float {
        get { values[y * width + x] }
        set { values[y * width + x] = newValue }
    }

    /// Whether `values` holds `width · height` values (a mask built field by field may not).
    public var isConsistent: Bool { width >= 0 && height >= 0 && values.count == width * height }

    /// Resizes to `width x height`, keeping the storage when the count is unchanged (no allocation then).
    mutating func reshape(width: Int, height: Int) {
        let count = width * height
        if values.count != count {
            if values.count > count {
                values.removeLast(values.count - count)
            } else {
                values.append(contentsOf: repeatElement(0, count: count - values.count))
            }
        }
        self.width = width
        self.height = height
    }
}
