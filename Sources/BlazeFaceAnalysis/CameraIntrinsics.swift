import BlazeFaceMesh
import Foundation

/// A pinhole camera in image pixels: focal lengths `fx`, `fy` and principal point (`cx`, `cy`), measured as
/// the landmarks are (x to the right, y down, the image's top-left corner at (0, 0), pixel centres at
/// half-integers).
///
/// Camera coordinates are MediaPipe's (those of its face-geometry pipeline and of OpenGL): x to the image's
/// right, y up, z toward the viewer; the camera sits at the origin and looks along −z, so everything it
/// sees has z < 0. A camera point (X, Y, Z) appears at x = cx + fx·X/(−Z), y = cy − fy·Y/(−Z).
public struct CameraIntrinsics: Hashable, Sendable {
    /// Horizontal focal length, in pixels.
    public var fx: Double
    /// Vertical focal length, in pixels.
    public var fy: Double
    /// Principal point's x, in pixels from the image's left edge.
    public var cx: Double
    /// Principal point's y, in pixels from the image's top edge.
    public var cy: Double

    /// A camera with these focal lengths and principal point, all in image pixels.
    /// - Parameters:
    ///   - fx: horizontal focal length.
    ///   - fy: vertical focal length.
    ///   - cx: principal point's x.
    ///   - cy: principal point's y.
    public init(fx: Double, fy: Double, cx: Double, cy: Double) {
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
    }

    /// MediaPipe's default camera (its face-geometry environment): a vertical field of view of 63° over
    /// the image's height, square pixels, the principal point at the image's centre.
    /// - Parameters:
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    ///   - degrees: the vertical field of view, in degrees.
    /// - Returns: the camera, in the image's pixels.
    public static func mediaPipe(imageWidth: Int, imageHeight: Int,
                                 verticalFieldOfView degrees: Double = 63) -> CameraIntrinsics {
        let f = Double(imageHeight) / 2 / tan(degrees * .pi / 360)
        return CameraIntrinsics(fx: f, fy: f, cx: Double(imageWidth) / 2, cy: Double(imageHeight) / 2)
    }

    /// Whether the focal lengths are finite and positive and the principal point finite.
    public var isValid: Bool {
        fx.isFinite && fy.isFinite && cx.isFinite && cy.isFinite && fx > 0 && fy > 0
    }

    /// The direction of the ray through pixel (x, y), scaled to depth 1: (X, Y, −1).
    /// - Parameters:
    ///   - x: pixels from the image's left edge.
    ///   - y: pixels from the image's top edge.
    /// - Returns: the ray's direction in camera coordinates (x right, y up, z toward the viewer).
    public func ray(x: Double, y: Double) -> SIMD3<Double> {
        SIMD3((x - cx) / fx, (cy - y) / fy, -1)
    }

    /// Where camera point `p` appears in the image; nil when it is not in front of the camera (z ≥ 0).
    /// - Parameter p: a point in camera coordinates, in the units of the scene (the canonical face's centimetres).
    /// - Returns: the image point, in pixels.
    public func project(_ p: SIMD3<Double>) -> Point? {
        guard p.z < 0 else { return nil }
        return Point(x: cx + fx * p.x / -p.z, y: cy - fy * p.y / -p.z)
    }
}
