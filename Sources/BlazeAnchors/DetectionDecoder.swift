/// Decodes a model's raw outputs into detections, as MediaPipe's `TensorsToDetectionsCalculator` does on
/// the CPU (one class, no box-size exponential).
///
/// For anchor (ax, ay, aw, ah) and regressors r (x-first order):
/// centre = (r0 / xScale · aw + ax, r1 / yScale · ah + ay), size = (r2 / wScale · aw, r3 / hScale · ah),
/// corners = centre ∓ size / 2; keypoint k = (r[o + v·k] / xScale · aw + ax, r[o + v·k + 1] / yScale · ah + ay).
/// Score = sigmoid(clamp(logit, ±scoreClippingThreshold)). A detection is kept when its score is at least
/// `minScore` (so NaN scores are dropped) and its width and height are neither negative nor NaN.
///
/// Immutable and `Sendable`: one decoder can serve several threads.
public struct DetectionDecoder: Sendable {
    /// The anchors, one per model output row.
    public let anchors: [Anchor]
    /// The decoding options.
    public let options: DecodingOptions

    /// - Parameters:
    ///   - anchors: one per model output row, normalized to the model input.
    ///   - options: the output layout, scales and score transform.
    /// - Throws: `AnchorError.invalidDecodingOptions` for an impossible layout or score transform,
    ///   `.noAnchors` for an empty anchor list, `.invalidAnchor` for an anchor with a coordinate that is
    ///   not finite, `.tooManyAnchors` beyond `AnchorOptions.maximumAnchorCount`.
    public init(anchors: [Anchor], options: DecodingOptions) throws(AnchorError) {
        try options.validate()
        guard !anchors.isEmpty else { throw .noAnchors }
        guard anchors.count <= AnchorOptions.maximumAnchorCount else {
            throw .tooManyAnchors(limit: AnchorOptions.maximumAnchorCount)
        }
        guard anchors.count.multipliedReportingOverflow(by: options.numCoordinates).overflow == false else {
            throw .invalidDecodingOptions("\(anchors.count) anchors × \(options.numCoordinates) coordinates overflows")
        }
        for (index, anchor) in anchors.enumerated()
        where !(anchor.xCenter.isFinite && anchor.yCenter.isFinite && anchor.width.isFinite && anchor.height.isFinite) {
            throw .invalidAnchor(index: index)
        }
        self.anchors = anchors
        self.options = options
    }

    /// A decoder for the anchors the given anchor options generate.
    ///
    /// - Parameters:
    ///   - anchorOptions: the options the anchors are generated from.
    ///   - options: the output layout, scales and score transform.
    /// - Throws: the errors of `AnchorOptions.generateAnchors()` and of `init(anchors:options:)`.
    public init(anchorOptions: AnchorOptions, options: DecodingOptions) throws(AnchorError) {
        try self.init(anchors: anchorOptions.generateAnchors(), options: options)
    }

    /// Floats the regressors buffer must hold: `anchors.count × numCoordinates`.
    public var regressorCount: Int { anchors.count * options.numCoordinates }
    /// Floats the scores buffer must hold: one logit per anchor.
    public var scoreCount: Int { anchors.count }

    /// Decodes into `detections`, which is cleared first; detections come in anchor order.
    ///
    /// Makes no heap allocation when `detections` already has capacity for the result (reserve
    /// `anchors.count` once to be sure).
    ///
    /// - Parameters:
    ///   - regressors: `anchors.count × numCoordinates` floats, row-major (the model's [1, N, 16] output).
    ///   - scores: one score logit per anchor (the model's [1, N, 1] output).
    ///   - detections: receives the detections that pass the score and size checks.
    /// - Throws: `AnchorError.bufferSizeMismatch` when a buffer has the wrong size (`detections` is then
    ///   left untouched).
    public func decode(
        regressors: UnsafeBufferPointer<Float>,
        scores: UnsafeBufferPointer<Float>,
        into detections: inout [Detection]
    ) throws(AnchorError) {
        guard regressors.count == regressorCount else {
            throw .bufferSizeMismatch(buffer: "regressors", expected: regressorCount, actual: regressors.count)
        }
        guard scores.count == scoreCount else {
            throw .bufferSizeMismatch(buffer: "scores", expected: scoreCount, actual: scores.count)
        }
        detections.removeAll(keepingCapacity: true)
        // Non-empty: init requires at least one anchor and one coordinate.
        guard let r = regressors.baseAddress, let s = scores.baseAddress else { return }
        anchors.withUnsafeBufferPointer { anchorBuffer in
            decode(anchors: anchorBuffer, regressors: r, scores: s, into: &detections)
        }
    }

    /// Decodes arrays into a new array of detections, in anchor order.
    ///
    /// - Parameters:
    ///   - regressors: `anchors.count × numCoordinates` floats, row-major.
    ///   - scores: one score logit per anchor.
    /// - Returns: the detections that pass the score and size checks, normalized to the model input.
    /// - Throws: `AnchorError.bufferSizeMismatch` when an array has the wrong size.
    public func decode(regressors: [Float], scores: [Float]) throws(AnchorError) -> [Detection] {
        guard regressors.count == regressorCount else {
            throw .bufferSizeMismatch(buffer: "regressors", expected: regressorCount, actual: regressors.count)
        }
        guard scores.count == scoreCount else {
            throw .bufferSizeMismatch(buffer: "scores", expected: scoreCount, actual: scores.count)
        }
        var detections: [Detection] = []
        regressors.withUnsafeBufferPointer { r in
            scores.withUnsafeBufferPointer { s in
                anchors.withUnsafeBufferPointer { anchorBuffer in
                    decode(anchors: anchorBuffer, regressors: r.baseAddress!, scores: s.baseAddress!, into: &detections)
                }
            }
        }
        return detections
    }

    // MARK: - The loop

    /// Sizes are checked by the callers.
    private func decode(
        anchors: UnsafeBufferPointer<Anchor>,
        regressors: UnsafePointer<Float>,
        scores: UnsafePointer<Float>,
        into detections: inout [Detection]
    ) {
        let o = options
        let stride = o.numCoordinates
        let xFirst = o.reverseOutputOrder
        let clip = o.scoreClippingThreshold
        var index = 0
        while index < anchors.count {
            defer { index += 1 }

            var score = scores[index]
            if o.applySigmoid {
                if score < -clip { score = -clip } else if score > clip { score = clip }
                score = logistic(score)
            }
            // `!(>=)` also drops NaN scores.
            guard score >= o.minScore else { continue }

            let anchor = anchors[index]
            let row = regressors + index * stride
            let b = row + o.boxCoordinateOffset
            let (rx, ry, rw, rh) = xFirst ? (b[0], b[1], b[2], b[3]) : (b[1], b[0], b[3], b[2])
            let xCenter = rx / o.xScale * anchor.width + anchor.xCenter
            let yCenter = ry / o.yScale * anchor.height + anchor.yCenter
            let w = rw / o.wScale * anchor.width
            let h = rh / o.hScale * anchor.height
            var box = Box(
                xMin: xCenter - w / 2, yMin: yCenter - h / 2,
                xMax: xCenter + w / 2, yMax: yCenter + h / 2)
            // MediaPipe checks the stored width and height (max − min): drop negative and NaN sizes.
            guard box.width >= 0, box.height >= 0 else { continue }
            if o.flipVertically {
                (box.yMin, box.yMax) = (1 - box.yMax, 1 - box.yMin)
            }

            var keypoints = Keypoints()
            var k = 0
            while k < o.numKeypoints {
                let p = row + o.keypointCoordinateOffset + k * o.valuesPerKeypoint
                let (kx, ky) = xFirst ? (p[0], p[1]) : (p[1], p[0])
                let x = kx / o.xScale * anchor.width + anchor.xCenter
                let y = ky / o.yScale * anchor.height + anchor.yCenter
                keypoints.append(Keypoint(x: x, y: o.flipVertically ? 1 - y : y))
                k += 1
            }

            detections.append(Detection(box: box, score: score, keypoints: keypoints, anchorIndex: index))
        }
    }
}
