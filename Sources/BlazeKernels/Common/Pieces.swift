/// Splitting a kernel's work into pieces for several threads.
///
/// Kernels that can be split report `pieceCount`, the number of independent pieces of their output (output
/// rows `n·outH` for the spatial kernels, runs of one register tile's rows for the 1x1 convolution's GEMM,
/// blocks of `Pieces.blockSize` floats for the flat elementwise ones,
/// 1 for an implementation that only computes the whole output), and take `run(…, pieces:)` with a range of
/// `0..<pieceCount`. Every output value is computed by the same instructions in the same order whatever
/// the range, so splitting never changes a result.
package enum Pieces {
    /// Floats per piece of the flat elementwise kernels (a multiple of 16: whole vectors, aligned pieces).
    package static let blockSize = 2048

    /// Part `part` of `parts` near-equal contiguous ranges of `0..<count`.
    @inline(__always)
    package static func range(part: Int, of parts: Int, count: Int) -> Range<Int> {
        guard parts > 1 else { return 0..<count }
        return (count * part / parts)..<(count * (part + 1) / parts)
    }

    /// The pieces of a flat kernel over `count` floats.
    @inline(__always)
    package static func blockCount(_ count: Int) -> Int { max((count + blockSize - 1) / blockSize, 1) }

    /// The floats of blocks `pieces` of a flat kernel over `count` floats.
    @inline(__always)
    package static func elements(_ pieces: Range<Int>, count: Int) -> Range<Int> {
        let start = min(pieces.lowerBound * blockSize, count)
        return start..<max(min(pieces.upperBound * blockSize, count), start)
    }

    /// Calls `body(image, rows)` for each image that output rows `pieces` (of `images · rowsPerImage`) cover,
    /// with the rows of that image they cover.
    @inline(__always)
    static func forEachImage(_ pieces: Range<Int>, rowsPerImage: Int, _ body: (Int, Range<Int>) -> Void) {
        guard rowsPerImage > 0, !pieces.isEmpty else { return }
        var row = pieces.lowerBound
        while row < pieces.upperBound {
            let image = row / rowsPerImage
            let first = row - image * rowsPerImage
            let end = min(rowsPerImage, pieces.upperBound - image * rowsPerImage)
            body(image, first..<end)
            row = (image + 1) * rowsPerImage
        }
    }

    /// `forEachImage` over NHWC tensors: calls `body(inputImage, outputImage, rows)` with the first float of
    /// each covered image of `input` (of `inputShape`) and of `output` (of `outputShape`, whose rows `pieces`
    /// counts).
    @inline(__always)
    static func forEachImage(
        _ pieces: Range<Int>, input: UnsafePointer<Float>, _ inputShape: Shape4, output: UnsafeMutablePointer<Float>,
        _ outputShape: Shape4, _ body: (UnsafePointer<Float>, UnsafeMutablePointer<Float>, Range<Int>) -> Void
    ) {
        let i = inputShape, o = outputShape
        forEachImage(pieces, rowsPerImage: o.h) { b, rows in
            body(input + b * i.h * i.w * i.c, output + b * o.h * o.w * o.c, rows)
        }
    }

    /// GEMM outputs of fewer pixels than this are also split by columns: their weights, read once per
    /// tile row, outweigh their arithmetic, so threads that each take all the rows and some of the output
    /// channels read the weights once between them (and fill more of each tile).
    static let columnSplitPixels = 48

    /// The most column groups of a GEMM split by columns.
    static let maximumColumnGroups = 8

    /// Column groups for a GEMM of `pixels` output pixels over `panels` column panels: 1 (split by rows
    /// only) unless the output is small. Its pieces are then `groups × rows`, group-major.
    static func columnGroups(pixels: Int, panels: Int) -> Int {
        pixels < columnSplitPixels ? max(min(panels, maximumColumnGroups), 1) : 1
    }

    /// The column panels of group `group` of `groups` over `panelCount` panels: all of them (`0..<Int.max`)
    /// with one group.
    @inline(__always)
    static func panels(group: Int, of groups: Int, panelCount: Int) -> Range<Int> {
        groups > 1 ? range(part: group, of: groups, count: panelCount) : 0..<Int.max
    }
}
