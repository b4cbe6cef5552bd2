/// Intersection over union of two axis-aligned boxes given by their corners, as MediaPipe's non-maximum
/// suppression computes it (`Rectangle::Intersects`, edges included, then intersection / (a1 + a2 −
/// intersection)).
///
/// 0 when either box is empty (`minX > maxX` or `minY > maxY`) or they are disjoint; boxes that only touch,
/// and zero-area boxes, intersect in zero area and also give 0. Symmetric. Never NaN: 0 when a coordinate is
/// NaN. This is the one IoU of the library: `Rect.iou` (pixels, `Double`) and BlazeAnchors' `Box.iou`
/// (normalized, `Float`) both call it, so NMS, tracking and tests agree on what overlap means.
/// - Parameters:
///   - a: a box by its edges, in any units (pixels, or fractions of a model input).
///   - b: another box, in the same units.
/// - Returns: the intersection's area over the union's, 0...1.
@inlinable
public func intersectionOverUnion<T: BinaryFloatingPoint>(
    _ a: (minX: T, minY: T, maxX: T, maxY: T), _ b: (minX: T, minY: T, maxX: T, maxY: T)
) -> T {
    if a.minX > a.maxX || a.minY > a.maxY || b.minX > b.maxX || b.minY > b.maxY
        || b.maxX < a.minX || a.maxX < b.minX || b.maxY < a.minY || a.maxY < b.minY {
        return 0
    }
    let intersectionWidth = min(a.maxX, b.maxX) - max(a.minX, b.minX)
    let intersectionHeight = min(a.maxY, b.maxY) - max(a.minY, b.minY)
    let intersection = intersectionWidth * intersectionHeight
    let union = (a.maxX - a.minX) * (a.maxY - a.minY) + (b.maxX - b.minX) * (b.maxY - b.minY) - intersection
    guard intersection > 0, union > 0 else { return 0 }
    return intersection / union
}
