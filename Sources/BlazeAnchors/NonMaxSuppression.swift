/// Non-maximum suppression over detections, as MediaPipe's `NonMaxSuppressionCalculator` does with
/// `INTERSECTION_OVER_UNION` overlap.
///
/// Detections are visited by score, highest first; equal scores keep their input order (the decoder's
/// output is in anchor order), so the result is deterministic.
///
/// - `weighted`: take the best remaining detection; its candidates are itself and every remaining
///   detection whose IoU with it is greater than `iouThreshold`. The output box corners and keypoints are
///   the score-weighted means over the candidates, the score and anchor index the best one's. The
///   candidates are removed; repeat.
/// - `hard`: keep a detection unless its IoU with an already kept one is greater than `iouThreshold`.
///
/// Both stop after `maxDetections` outputs. Two deliberate departures from MediaPipe's code, both only
/// for inputs BlazeFace does not produce: the best detection is always its own candidate (MediaPipe's
/// loop ends early when a zero-area box, or a threshold ≥ 1, excludes it), and a cluster whose scores
/// sum to zero or less keeps the best detection's geometry instead of dividing by that sum.
/// MediaPipe's weighted mode also ignores `max_num_detections`; here it applies to both.
public struct NonMaxSuppression: Sendable {
    /// How overlapping detections are merged (`.weighted`, MediaPipe's choice for BlazeFace) or dropped (`.hard`).
    public var algorithm: NMSAlgorithm
    /// Detections overlap when their IoU is strictly greater than this (0.3 in the BlazeFace graphs,
    /// 0.5 in MediaPipe Tasks' FaceDetector).
    public var iouThreshold: Float
    /// The most detections returned; `nil`: no limit. A value ≤ 0 returns none.
    public var maxDetections: Int?

    /// Creates a suppression; the defaults are the BlazeFace graphs' settings.
    /// - Parameters:
    ///   - algorithm: weighted merging (default) or hard suppression.
    ///   - iouThreshold: the IoU above which two detections overlap.
    ///   - maxDetections: the most detections returned; nil (default) for no limit.
    public init(algorithm: NMSAlgorithm = .weighted, iouThreshold: Float = 0.3, maxDetections: Int? = nil) {
        self.algorithm = algorithm
        self.iouThreshold = iouThreshold
        self.maxDetections = maxDetections
    }

    /// Suppresses into `output`, which is cleared first; the output is in descending score order.
    ///
    /// Makes no heap allocation once `scratch` has seen as many detections and `output` has capacity for
    /// the result (reserve `detections.count`, or `maxDetections`, once).
    /// - Parameters:
    ///   - detections: the decoded detections, in any order (the decoder's anchor order keeps ties stable).
    ///   - output: receives the kept or merged detections.
    ///   - scratch: reused working memory; keep one per thread.
    public func callAsFunction(_ detections: [Detection], into output: inout [Detection], scratch: inout NMSScratch) {
        output.removeAll(keepingCapacity: true)
        let limit = maxDetections.map { Swift.max(0, $0) } ?? Int.max
        guard !detections.isEmpty, limit > 0 else { return }
        detections.withUnsafeBufferPointer { input in
            scratch.sortIndices(byScoresOf: input)
            switch algorithm {
            case .weighted: weighted(input, limit: limit, into: &output, scratch: &scratch)
            case .hard: hard(input, limit: limit, into: &output, scratch: scratch)
            }
        }
    }

    /// Suppresses into a new array, in descending score order.
    /// - Parameter detections: the decoded detections.
    /// - Returns: the kept or merged detections, in descending score order.
    public func callAsFunction(_ detections: [Detection]) -> [Detection] {
        var output: [Detection] = []
        var scratch = NMSScratch()
        self(detections, into: &output, scratch: &scratch)
        return output
    }

    // MARK: - Algorithms

    private func hard(
        _ input: UnsafeBufferPointer<Detection>, limit: Int, into output: inout [Detection], scratch: NMSScratch
    ) {
        let n = input.count
        scratch.order.withUnsafeBufferPointer { order in
            var p = 0
            while p < n && output.count < limit {
                let candidate = input[order[p]]
                var suppressed = false
                var k = 0
                while k < output.count {
                    if output[k].box.iou(with: candidate.box) > iouThreshold {
                        suppressed = true
                        break
                    }
                    k += 1
                }
                if !suppressed { output.append(candidate) }
                p += 1
            }
        }
    }

    private func weighted(
        _ input: UnsafeBufferPointer<Detection>, limit: Int, into output: inout [Detection], scratch: inout NMSScratch
    ) {
        let n = input.count
        let order = scratch.order  // shares storage: no copy, `order` is not mutated below
        // Lane l of the keypoint storage holds coordinate l % 2 of keypoint l / 2.
        let lanes = SIMD16<Float>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        scratch.removed.withUnsafeMutableBufferPointer { removed in
            order.withUnsafeBufferPointer { order in
                for i in 0..<n { removed[i] = false }
                var p = 0
                while p < n && output.count < limit {
                    defer { p += 1 }
                    let topIndex = order[p]
                    if removed[topIndex] { continue }
                    removed[topIndex] = true
                    let top = input[topIndex]

                    // Accumulate in visiting order (the top first), as MediaPipe does.
                    var totalScore = top.score
                    var corners = SIMD4(top.box.xMin, top.box.yMin, top.box.xMax, top.box.yMax) * top.score
                    let topLanes = Float(2 * top.keypoints.count)
                    var pointSums = top.keypoints.storage * top.score
                    var pointWeights = SIMD16<Float>(repeating: top.score)
                    var merged = false

                    var q = p + 1
                    while q < n {
                        let index = order[q]
                        q += 1
                        if removed[index] { continue }
                        let other = input[index]
                        guard other.box.iou(with: top.box) > iouThreshold else { continue }
                        removed[index] = true
                        merged = true
                        let w = other.score
                        totalScore += w
                        corners += SIMD4(other.box.xMin, other.box.yMin, other.box.xMax, other.box.yMax) * w
                        // Only the keypoints this detection has count (all have the same number when
                        // they come from one decoder).
                        let weights = SIMD16<Float>(repeating: w)
                            .replacing(with: 0, where: lanes .>= Float(2 * other.keypoints.count))
                        pointSums += other.keypoints.storage * weights
                        pointWeights += weights
                    }

                    guard merged, totalScore > 0 else {
                        output.append(top)
                        continue
                    }
                    var result = top
                    let mean = corners / totalScore
                    result.box = Box(xMin: mean[0], yMin: mean[1], xMax: mean[2], yMax: mean[3])
                    let usable = (lanes .< topLanes) .& (pointWeights .> 0)
                    result.keypoints.storage = top.keypoints.storage
                        .replacing(with: pointSums / pointWeights, where: usable)
                    output.append(result)
                }
            }
        }
    }
}
