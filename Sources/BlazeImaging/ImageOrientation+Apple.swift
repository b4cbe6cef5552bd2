// UIKit's and ImageIO's spellings of `ImageOrientation`: thin wrappers over `init(uiImageOrientation:)` and the
// EXIF raw values, compiled only where those frameworks exist. Linux CI builds this file with both branches
// compiled out; it has not been compiled on an Apple platform here.

#if canImport(UIKit)
import UIKit

extension ImageOrientation {
    /// The orientation of the same name as a `UIImage.Orientation` (`uiImage.imageOrientation`).
    ///
    /// UIKit numbers the orientations 0...7, EXIF 1...8 in another order: this converts by name
    /// (`init(uiImageOrientation:)`). An orientation UIKit might add later becomes `.up`.
    /// - Parameter orientation: UIKit's orientation.
    public init(_ orientation: UIImage.Orientation) {
        self = ImageOrientation(uiImageOrientation: orientation.rawValue) ?? .up
    }

    /// The `UIImage.Orientation` of the same name (for `UIImage(cgImage:scale:orientation:)`).
    public var uiImageOrientation: UIImage.Orientation {
        UIImage.Orientation(rawValue: uiImageOrientationRawValue) ?? .up
    }
}
#endif

#if canImport(ImageIO)
import ImageIO

extension ImageOrientation {
    /// The orientation of a `CGImagePropertyOrientation` (ImageIO's, Vision's and Core Image's): the same EXIF
    /// values, 1...8.
    /// - Parameter orientation: ImageIO's orientation.
    public init(_ orientation: CGImagePropertyOrientation) {
        self = ImageOrientation(rawValue: Int(orientation.rawValue)) ?? .up
    }

    /// The `CGImagePropertyOrientation` with the same EXIF value.
    public var cgImagePropertyOrientation: CGImagePropertyOrientation {
        CGImagePropertyOrientation(rawValue: UInt32(rawValue)) ?? .up
    }
}
#endif
