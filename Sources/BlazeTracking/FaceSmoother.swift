import BlazeFaceMesh

/// One-Euro smoothing of one face: every coordinate of every point (x, y and z each), and the box's four
/// edges, each with its own `OneEuroFilter`, the speed measured in face sizes per second as MediaPipe's
/// `LandmarksSmoothingCalculator` does (value scale = 1 / the mean of the points' bounding-box width and
/// height). Storage is allocated when the first mesh arrives and reused afterwards.
struct FaceSmoother {
    var parameters: OneEuroFilter.Parameters
    private var pointFilters: [OneEuroFilter] = []
    private var boxFilters: [OneEuroFilter]

    init(parameters: OneEuroFilter.Parameters) {
        self.parameters = parameters
        boxFilters = Array(repeating: OneEuroFilter(parameters: parameters), count: 4)
    }

    /// Forgets the signal (a track found again after a miss restarts from its new position).
    mutating func reset() {
        for index in pointFilters.indices { pointFilters[index].reset() }
        for index in boxFilters.indices { boxFilters[index].reset() }
    }

    /// The smoothed box of `box` (the raw points' bounding box) at `time`; `scale` is the face size in pixels.
    mutating func smooth(box: Rect, time: Double, scale: Double) -> Rect {
        let valueScale = scale > 1e-6 ? 1 / scale : 1
        let minX = boxFilters[0].filter(box.minX, time: time, valueScale: valueScale)
        let minY = boxFilters[1].filter(box.minY, time: time, valueScale: valueScale)
        let maxX = boxFilters[2].filter(box.maxX, time: time, valueScale: valueScale)
        let maxY = boxFilters[3].filter(box.maxY, time: time, valueScale: valueScale)
        return Rect(x: minX, y: minY, width: max(0, maxX - minX), height: max(0, maxY - minY))
    }

    /// Writes the smoothed `raw` points into `smoothed` (same count, reusing its storage).
    mutating func smooth(points raw: [Landmark], time: Double, scale: Double, into smoothed: inout [Landmark]) {
        if pointFilters.count != raw.count * 3 {
            pointFilters = Array(repeating: OneEuroFilter(parameters: parameters), count: raw.count * 3)
        }
        let valueScale = scale > 1e-6 ? 1 / scale : 1
        if smoothed.count != raw.count {
            smoothed.removeAll(keepingCapacity: true)
            smoothed.append(contentsOf: raw)
        }
        pointFilters.withUnsafeMutableBufferPointer { filters in
            smoothed.withUnsafeMutableBufferPointer { out in
                raw.withUnsafeBufferPointer { points in
                    for index in 0..<points.count {
                        let p = points[index]
                        out[index] = Landmark(
                            x: Float(filters[3 * index].filter(Double(p.x), time: time, valueScale: valueScale)),
                            y: Float(filters[3 * index + 1].filter(Double(p.y), time: time, valueScale: valueScale)),
                            z: Float(filters[3 * index + 2].filter(Double(p.z), time: time, valueScale: valueScale)))
                    }
                }
            }
        }
    }
}
