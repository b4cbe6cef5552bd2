import BlazeAnchors
import BlazeTestSupport

/// |a − b| ≤ tolerance.
func close(_ a: Float, _ b: Float, _ tolerance: Float = 1e-6) -> Bool {
    abs(a - b) <= tolerance
}

func close(_ a: Box, _ b: Box, _ tolerance: Float = 1e-6) -> Bool {
    close(a.xMin, b.xMin, tolerance) && close(a.yMin, b.yMin, tolerance)
        && close(a.xMax, b.xMax, tolerance) && close(a.yMax, b.yMax, tolerance)
}

func close(_ a: Keypoint, _ b: Keypoint, _ tolerance: Float = 1e-6) -> Bool {
    close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
}

func close(_ a: Anchor, _ b: Anchor, _ tolerance: Float = 1e-6) -> Bool {
    close(a.xCenter, b.xCenter, tolerance) && close(a.yCenter, b.yCenter, tolerance)
        && close(a.width, b.width, tolerance) && close(a.height, b.height, tolerance)
}

/// A detection with the given corners and score, one keypoint at the box centre.
func detection(_ xMin: Float, _ yMin: Float, _ xMax: Float, _ yMax: Float, score: Float, anchor: Int = 0) -> Detection {
    let box = Box(xMin: xMin, yMin: yMin, xMax: xMax, yMax: yMax)
    return Detection(box: box, score: score, keypoints: [box.center], anchorIndex: anchor)
}

