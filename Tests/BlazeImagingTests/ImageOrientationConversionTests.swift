import BlazeImaging
import Testing

@Suite("ImageOrientation: UIKit numbering, mirror and quarter turns")
struct ImageOrientationConversionTests {
    /// `UIImage.Orientation` raw values (UIKit's `UIImageOrientation` order, 0...7) and the EXIF value of the
    /// same-named orientation (`CGImagePropertyOrientation`, 1...8).
    static let uiKitTable: [(uiKit: Int, name: String, exif: Int)] = [
        (0, "up", 1), (1, "down", 3), (2, "left", 8), (3, "right", 6),
        (4, "upMirrored", 2), (5, "downMirrored", 4), (6, "leftMirrored", 5), (7, "rightMirrored", 7),
    ]

    @Test("uprightPoint undoes storedPoint, and the other way round, for every orientation (a non-square image)",
          arguments: ImageOrientation.allCases)
    func uprightPointInvertsStoredPoint(_ orientation: ImageOrientation) {
        let w = 7.0, h = 3.0  // stored size
        let uprightW = orientation.swapsDimensions ? h : w, uprightH = orientation.swapsDimensions ? w : h
        for (x, y) in [(0.0, 0.0), (1.25, 2.5), (7, 3), (-2, 4.5), (9.5, -1)] {
            let upright = orientation.uprightPoint(x: x, y: y, width: w, height: h)
            let stored = orientation.storedPoint(u: upright.u, v: upright.v, width: w, height: h)
            #expect(stored.x == x && stored.y == y, "\(orientation) (\(x), \(y))")
        }
        // The stored image's corners are the upright image's.
        let corner = orientation.uprightPoint(x: 0, y: 0, width: w, height: h)
        #expect([0, uprightW].contains(corner.u) && [0, uprightH].contains(corner.v))
    }

    @Test("UIKit raw values convert by name, not by number")
    func uiKitRawValues() {
        for row in Self.uiKitTable {
            let orientation = ImageOrientation(uiImageOrientation: row.uiKit)
            #expect(orientation?.rawValue == row.exif, "UIKit \(row.uiKit) (\(row.name))")
            #expect(orientation.map { "\($0)" } == row.name)
            #expect(orientation?.uiImageOrientationRawValue == row.uiKit)
        }
        #expect(ImageOrientation(uiImageOrientation: -1) == nil)
        #expect(ImageOrientation(uiImageOrientation: 8) == nil)
        // The mistake the old documentation invited: UIKit's .right is 3, EXIF's 3 is .down.
        #expect(ImageOrientation(uiImageOrientation: 3) == .right)
        #expect(ImageOrientation(rawValue: 3) == .down)
        #expect(Set(ImageOrientation.allCases.map(\.uiImageOrientationRawValue)) == Set(0...7))
    }

    /// A stored image of distinct bytes, `w x h`, row by row.
    static func stored(_ w: Int, _ h: Int) -> [[UInt8]] {
        (0..<h).map { y in (0..<w).map { x in UInt8(10 * y + x) } }
    }

    static func mirror(_ image: [[UInt8]]) -> [[UInt8]] { image.map { Array($0.reversed()) } }

    /// Turned 90° clockwise: the left column, read bottom to top, becomes the top row.
    static func turnClockwise(_ image: [[UInt8]]) -> [[UInt8]] {
        let h = image.count, w = image[0].count
        return (0..<w).map { x in (0..<h).map { y in image[h - 1 - y][x] } }
    }

    /// The upright image as `ImageOrientation.storedPixel` defines it.
    static func upright(_ image: [[UInt8]], _ orientation: ImageOrientation) -> [[UInt8]] {
        let h = image.count, w = image[0].count
        let (uw, uh) = orientation.swapsDimensions ? (h, w) : (w, h)
        return (0..<uh).map { v in
            (0..<uw).map { u in
                let p = orientation.storedPixel(u: u, v: v, width: w, height: h)
                return image[p.y][p.x]
            }
        }
    }

    @Test("Each orientation is a mirror, then clockwise quarter turns (the storedPixel mapping)")
    func mirrorThenTurns() {
        let image = Self.stored(3, 2)
        for orientation in ImageOrientation.allCases {
            var shown = orientation.isMirrored ? Self.mirror(image) : image
            for _ in 0..<orientation.quarterTurns { shown = Self.turnClockwise(shown) }
            #expect(shown == Self.upright(image, orientation), "\(orientation)")
            #expect(ImageOrientation(quarterTurns: orientation.quarterTurns, mirrored: orientation.isMirrored)
                    == orientation)
            #expect(ImageOrientation(quarterTurns: orientation.quarterTurns - 8, mirrored: orientation.isMirrored)
                    == orientation)
        }
        // Apple's wording: .right "rotate it 90° clockwise"; .leftMirrored "rotate it 90° clockwise, then flip
        // horizontally"; .rightMirrored "rotate 90° counter-clockwise, then flip horizontally".
        #expect(Self.upright(image, .right) == Self.turnClockwise(image))
        #expect(Self.upright(image, .leftMirrored) == Self.mirror(Self.turnClockwise(image)))
        let counterClockwise = Self.turnClockwise(Self.turnClockwise(Self.turnClockwise(image)))
        #expect(Self.upright(image, .rightMirrored) == Self.mirror(counterClockwise))
        #expect(Self.upright(image, .left) == counterClockwise)
    }

    @Test("flippedHorizontally shows the mirror image of the upright image")
    func flipped() {
        let image = Self.stored(4, 3)
        for orientation in ImageOrientation.allCases {
            #expect(Self.upright(image, orientation.flippedHorizontally) == Self.mirror(Self.upright(image, orientation)),
                    "\(orientation)")
            #expect(orientation.flippedHorizontally.flippedHorizontally == orientation)
        }
        #expect(ImageOrientation.right.flippedHorizontally == .leftMirrored)
        #expect(ImageOrientation.left.flippedHorizontally == .rightMirrored)
        #expect(ImageOrientation.up.flippedHorizontally == .upMirrored)
        #expect(ImageOrientation.down.flippedHorizontally == .downMirrored)
    }
}
