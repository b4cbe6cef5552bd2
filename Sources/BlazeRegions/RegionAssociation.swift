import BlazeImaging

/// When two boxes are taken for the same object, in the video loops that follow objects from frame to frame.
///
/// - `.mediaPipe` is MediaPipe's `AssociationNormRectCalculator` (`min_similarity_threshold: 0.5`): IoU above
///   0.5. `FaceLandmarker`'s video mode uses it, over its unturned regions, to stay MediaPipe's graph.
/// - `.overlapOrCenterInside` adds: or the first box's centre lies inside the second. `FaceTracker` uses it
///   wherever it must not give one face two IDs (a detection against the faces it follows, two tracks on one
///   face): a detection of a turned or partly hidden face often covers less than half of the union with its
///   followed mesh's box while its centre lies inside, and IoU alone would start a second track on it.
public enum OverlapRule: Hashable, Sendable {
    /// IoU above 0.5 (MediaPipe's rule).
    case mediaPipe
    /// IoU above 0.5, or the first box's centre inside the second (edges included).
    case overlapOrCenterInside

    /// Whether `a` and `b` are taken for the same object. `.overlapOrCenterInside` is not symmetric: it asks
    /// whether `a`'s centre is in `b`.
    /// - Parameters:
    ///   - a: the first box, in any coordinates shared with `b`.
    ///   - b: the second box.
    /// - Returns: whether the rule takes them for one object.
    public func matches(_ a: Rect, _ b: Rect) -> Bool {
        if a.iou(b) > 0.5 { return true }
        guard self == .overlapOrCenterInside else { return false }
        let c = a.center
        return c.x >= b.minX && c.x <= b.maxX && c.y >= b.minY && c.y <= b.maxY
    }
}

/// MediaPipe's `AssociationNormRectCalculator` over one list of regions in order: each region removes the
/// earlier ones that it matches by `OverlapRule.mediaPipe` on their unturned boxes and joins the end of the
/// list. Put regions from detections first and regions from the previous frame's points after them, and a
/// followed object replaces its own fresh detection.
///
/// A pure function of its arguments: callable from any thread.
public enum RegionAssociation {
    /// Associates `elements` in place (allocation-free); `region` gives each element's region.
    /// - Parameters:
    ///   - elements: the list, in order; the elements that remain keep their relative order.
    ///   - region: each element's region, in fractions of the image; called several times per element.
    public static func associate<Element>(_ elements: inout [Element], region: (Element) -> NormalizedRegion) {
        var index = 1
        while index < elements.count {
            let box = region(elements[index]).unturnedBox
            var earlier = 0, removed = 0
            while earlier < index - removed {
                if OverlapRule.mediaPipe.matches(region(elements[earlier]).unturnedBox, box) {
                    elements.remove(at: earlier)
                    removed += 1
                } else {
                    earlier += 1
                }
            }
            // The element at `index` moved down by `removed`; it joins the end of the processed part, which it
            // already is (everything after it is unprocessed).
            index += 1 - removed
        }
    }
}
