import BlazeAnchors
import BlazeTestSupport
import Testing

@Suite("Non-maximum suppression")
struct NonMaxSuppressionTests {
    static let weighted = NonMaxSuppression(algorithm: .weighted, iouThreshold: 0.3)
    static let hard = NonMaxSuppression(algorithm: .hard, iouThreshold: 0.3)

    @Test("Empty input gives empty output", arguments: NMSAlgorithm.allCases)
    func empty(algorithm: NMSAlgorithm) {
        #expect(NonMaxSuppression(algorithm: algorithm)([]).isEmpty)
    }

    @Test("A single detection passes unchanged", arguments: NMSAlgorithm.allCases)
    func single(algorithm: NMSAlgorithm) {
        let d = detection(0.1, 0.2, 0.3, 0.5, score: 0.7, anchor: 42)
        #expect(NonMaxSuppression(algorithm: algorithm)([d]) == [d])
    }

    @Test("Two identical boxes: the same box, the top score and anchor")
    func identical() throws {
        let a = detection(0.2, 0.2, 0.6, 0.6, score: 0.6, anchor: 1)
        let b = detection(0.2, 0.2, 0.6, 0.6, score: 0.9, anchor: 2)
        let out = Self.weighted([a, b])
        #expect(out.count == 1)
        #expect(close(out[0].box, a.box))
        #expect(close(out[0].keypoints[0], a.keypoints[0]))
        #expect(out[0].score == 0.9)
        #expect(out[0].anchorIndex == 2)
        #expect(Self.hard([a, b]) == [b])
    }

    @Test("Two overlapping boxes 0.9 / 0.6: score-weighted corners and keypoints")
    func overlapping() throws {
        let a = detection(0, 0, 0.4, 0.4, score: 0.9, anchor: 10)     // keypoint (0.2, 0.2)
        let b = detection(0.1, 0.1, 0.5, 0.5, score: 0.6, anchor: 11) // keypoint (0.3, 0.3); IoU 0.39
        let out = Self.weighted([b, a])
        #expect(out.count == 1)
        // xMin = (0·0.9 + 0.1·0.6) / 1.5 = 0.04; xMax = (0.4·0.9 + 0.5·0.6) / 1.5 = 0.44.
        #expect(close(out[0].box, Box(xMin: 0.04, yMin: 0.04, xMax: 0.44, yMax: 0.44)))
        #expect(close(out[0].keypoints[0], Keypoint(x: 0.24, y: 0.24)))
        #expect(out[0].score == 0.9)
        #expect(out[0].anchorIndex == 10)
        #expect(Self.hard([b, a]) == [a])
    }

    @Test("A small box inside a big one (IoU 0.04) is kept", arguments: NMSAlgorithm.allCases)
    func nested(algorithm: NMSAlgorithm) {
        let big = detection(0, 0, 1, 1, score: 0.9)
        let small = detection(0.4, 0.4, 0.6, 0.6, score: 0.8)
        #expect(NonMaxSuppression(algorithm: algorithm, iouThreshold: 0.3)([small, big]) == [big, small])
    }

    @Test("Disjoint and touching boxes are all kept, by descending score", arguments: NMSAlgorithm.allCases)
    func noOverlap(algorithm: NMSAlgorithm) {
        let a = detection(0, 0, 0.5, 0.5, score: 0.6, anchor: 0)
        let b = detection(0.5, 0, 1, 0.5, score: 0.9, anchor: 1)   // touches a
        let c = detection(0, 0.7, 0.2, 0.9, score: 0.7, anchor: 2)
        #expect(NonMaxSuppression(algorithm: algorithm)([a, b, c]) == [b, c, a])
    }

    @Test("Overlap must exceed the threshold strictly")
    func strictThreshold() {
        let a = detection(0, 0, 1, 1, score: 0.9)
        let b = detection(0, 0, 1, 0.5, score: 0.8)  // IoU exactly 0.5
        #expect(NonMaxSuppression(algorithm: .weighted, iouThreshold: 0.5)([a, b]).count == 2)
        #expect(NonMaxSuppression(algorithm: .hard, iouThreshold: 0.5)([a, b]).count == 2)
        let merged = NonMaxSuppression(algorithm: .weighted, iouThreshold: 0.49)([a, b])
        #expect(merged.count == 1)
        #expect(close(merged[0].box, Box(xMin: 0, yMin: 0, xMax: 1, yMax: 1.3 / 1.7)))
        #expect(NonMaxSuppression(algorithm: .hard, iouThreshold: 0.49)([a, b]) == [a])
    }

    @Test("Equal scores keep the input (anchor) order", arguments: NMSAlgorithm.allCases)
    func ties(algorithm: NMSAlgorithm) {
        let nms = NonMaxSuppression(algorithm: algorithm)
        let disjoint = [
            detection(0, 0, 0.1, 0.1, score: 0.8, anchor: 5),
            detection(0.2, 0, 0.3, 0.1, score: 0.8, anchor: 3),
            detection(0.4, 0, 0.5, 0.1, score: 0.9, anchor: 1),
            detection(0.6, 0, 0.7, 0.1, score: 0.8, anchor: 9),
        ]
        #expect(nms(disjoint).map(\.anchorIndex) == [1, 5, 3, 9])
        // Overlapping equal scores: the first in input order is the top.
        let same = [detection(0, 0, 0.5, 0.5, score: 0.8, anchor: 7), detection(0, 0, 0.5, 0.5, score: 0.8, anchor: 2)]
        #expect(nms(same).map(\.anchorIndex) == [7])
        #expect(nms(same.reversed()).map(\.anchorIndex) == [2])
        // Long runs of ties (past the sort's 16-element insertion runs) stay in input order.
        let many = (0..<100).map { detection(Float($0), 0, Float($0) + 0.5, 1, score: $0 % 3 == 0 ? 0.5 : 0.7, anchor: $0) }
        let expected = many.filter { $0.score == 0.7 }.map(\.anchorIndex) + many.filter { $0.score == 0.5 }.map(\.anchorIndex)
        #expect(nms(many).map(\.anchorIndex) == expected)
    }

    @Test("maxDetections caps the output", arguments: NMSAlgorithm.allCases)
    func maxDetections(algorithm: NMSAlgorithm) {
        let input = (0..<5).map { detection(Float($0), 0, Float($0) + 0.5, 1, score: 0.5 + Float($0) / 10, anchor: $0) }
        #expect(NonMaxSuppression(algorithm: algorithm, maxDetections: 2)(input).map(\.anchorIndex) == [4, 3])
        #expect(NonMaxSuppression(algorithm: algorithm, maxDetections: 0)(input).isEmpty)
        #expect(NonMaxSuppression(algorithm: algorithm, maxDetections: -3)(input).isEmpty)
        #expect(NonMaxSuppression(algorithm: algorithm, maxDetections: 10)(input).count == 5)
        #expect(NonMaxSuppression(algorithm: algorithm, maxDetections: nil)(input).count == 5)
    }

    @Test("A chain A–B–C: hard keeps A and C; weighted merges A with B and keeps C")
    func chain() {
        let a = detection(0, 0, 0.4, 0.4, score: 0.9, anchor: 0)
        let b = detection(0.1, 0, 0.5, 0.4, score: 0.8, anchor: 1)   // IoU(A, B) = 0.6
        let c = detection(0.25, 0, 0.65, 0.4, score: 0.7, anchor: 2) // IoU(B, C) = 0.45, IoU(A, C) = 0.23
        #expect(Self.hard([c, b, a]) == [a, c])
        let out = Self.weighted([c, b, a])
        #expect(out.count == 2)
        #expect(close(out[0].box, Box(xMin: 0.08 / 1.7, yMin: 0, xMax: 0.76 / 1.7, yMax: 0.4)))
        #expect(out[0].anchorIndex == 0 && out[0].score == 0.9)
        #expect(out[1] == c)
    }

    @Test("Zero-area and empty boxes overlap nothing, not even themselves, and do not stop the loop")
    func degenerate() {
        let point = detection(0.5, 0.5, 0.5, 0.5, score: 0.9, anchor: 0)
        let around = detection(0.4, 0.4, 0.6, 0.6, score: 0.8, anchor: 1)
        let twin = detection(0.4, 0.4, 0.6, 0.6, score: 0.7, anchor: 2)
        let empty = detection(0.6, 0.4, 0.4, 0.6, score: 0.6, anchor: 3)
        for algorithm in NMSAlgorithm.allCases {
            let out = NonMaxSuppression(algorithm: algorithm)([point, around, twin, empty])
            #expect(out.map(\.anchorIndex) == [0, 1, 3])
            #expect(out[0] == point)
            #expect(out[2] == empty)
        }
    }

    @Test("Keypoints are averaged over the candidates that have them")
    func keypointCounts() {
        let top = Detection(box: Box(xMin: 0, yMin: 0, xMax: 1, yMax: 1), score: 0.75,
                            keypoints: [Keypoint(x: 0, y: 0), Keypoint(x: 1, y: 1)], anchorIndex: 0)
        let other = Detection(box: Box(xMin: 0, yMin: 0, xMax: 1, yMax: 1), score: 0.25,
                              keypoints: [Keypoint(x: 1, y: 1)], anchorIndex: 1)
        let out = Self.weighted([other, top])
        #expect(out.count == 1)
        #expect(out[0].keypoints.count == 2)
        #expect(close(out[0].keypoints[0], Keypoint(x: 0.25, y: 0.25)))
        #expect(out[0].keypoints[1] == Keypoint(x: 1, y: 1))
    }

    @Test("Non-positive and NaN score sums keep the top detection's geometry")
    func unusualScores() {
        let a = detection(0, 0, 1, 1, score: 0, anchor: 0)
        let b = detection(0, 0, 0.9, 0.9, score: 0, anchor: 1)
        #expect(Self.weighted([a, b]) == [a])
        let n = detection(0, 0, 0.9, 0.9, score: .nan, anchor: 2)
        let good = detection(0, 0, 1, 1, score: 0.8, anchor: 3)
        let out = Self.weighted([n, good])
        #expect(out.map(\.anchorIndex) == [3])  // NaN sorts last and is merged into the top
        #expect(out[0] == good)
        #expect(Self.hard([n, good]).map(\.anchorIndex) == [3])
    }

    @Test("Random clusters agree with a plain reference implementation", arguments: [0.3, 0.5] as [Float])
    func matchesReference(threshold: Float) {
        var rng = SplitMix64(seed: 0xB1A2E)
        for round in 0..<20 {
            let count = round == 0 ? 1 : Int.random(in: 2...400, using: &rng)
            let centers = (0..<8).map { _ in (Float.random(in: 0...1, using: &rng), Float.random(in: 0...1, using: &rng)) }
            let input: [Detection] = (0..<count).map { i in
                let (cx, cy) = centers[Int.random(in: 0..<centers.count, using: &rng)]
                let x = cx + Float.random(in: -0.05...0.05, using: &rng)
                let y = cy + Float.random(in: -0.05...0.05, using: &rng)
                let w = Float.random(in: 0.05...0.3, using: &rng), h = Float.random(in: 0.05...0.3, using: &rng)
                let score = Float(Int.random(in: 50...100, using: &rng)) / 100  // many ties
                let box = Box(xCenter: x, yCenter: y, width: w, height: h)
                let points = Keypoints((0..<6).map { k in Keypoint(x: x + Float(k) * 0.01, y: y - Float(k) * 0.01) })
                return Detection(box: box, score: score, keypoints: points, anchorIndex: i)
            }
            let maxDetections: Int? = round % 4 == 3 ? 5 : nil
            let weighted = NonMaxSuppression(algorithm: .weighted, iouThreshold: threshold, maxDetections: maxDetections)(input)
            let expectedWeighted = referenceWeighted(input, threshold: threshold, maxDetections: maxDetections)
            #expect(weighted.count == expectedWeighted.count)
            for (got, want) in zip(weighted, expectedWeighted) {
                #expect(got.anchorIndex == want.anchorIndex && got.score == want.score)
                #expect(close(got.box, want.box, 1e-6))
                #expect(zip(got.keypoints, want.keypoints).allSatisfy { close($0, $1, 1e-6) })
            }
            let hard = NonMaxSuppression(algorithm: .hard, iouThreshold: threshold, maxDetections: maxDetections)(input)
            #expect(hard == referenceHard(input, threshold: threshold, maxDetections: maxDetections))
        }
    }
}

// MARK: - Reference implementations (plain arrays, MediaPipe's loop structure)

private func sortedIndices(_ input: [Detection]) -> [Int] {
    input.indices.sorted { a, b in
        input[a].score > input[b].score || (input[a].score == input[b].score && a < b)
    }
}

private func referenceWeighted(_ input: [Detection], threshold: Float, maxDetections: Int?) -> [Detection] {
    var remaining = sortedIndices(input)
    var output: [Detection] = []
    while let first = remaining.first, output.count < (maxDetections ?? .max) {
        let top = input[first]
        var candidates = [first]
        var rest: [Int] = []
        for index in remaining.dropFirst() {
            if input[index].box.iou(with: top.box) > threshold { candidates.append(index) } else { rest.append(index) }
        }
        var merged = top
        if candidates.count > 1 {
            var total: Float = 0
            var corners: [Float] = [0, 0, 0, 0]
            var points = [Float](repeating: 0, count: 2 * top.keypoints.count)
            for index in candidates {
                let d = input[index]
                total += d.score
                corners[0] += d.box.xMin * d.score
                corners[1] += d.box.yMin * d.score
                corners[2] += d.box.xMax * d.score
                corners[3] += d.box.yMax * d.score
                for k in 0..<top.keypoints.count {
                    points[2 * k] += d.keypoints[k].x * d.score
                    points[2 * k + 1] += d.keypoints[k].y * d.score
                }
            }
            merged.box = Box(xMin: corners[0] / total, yMin: corners[1] / total,
                             xMax: corners[2] / total, yMax: corners[3] / total)
            for k in 0..<top.keypoints.count {
                merged.keypoints[k] = Keypoint(x: points[2 * k] / total, y: points[2 * k + 1] / total)
            }
        }
        output.append(merged)
        remaining = rest
    }
    return output
}

private func referenceHard(_ input: [Detection], threshold: Float, maxDetections: Int?) -> [Detection] {
    var output: [Detection] = []
    for index in sortedIndices(input) where output.count < (maxDetections ?? .max) {
        if !output.contains(where: { $0.box.iou(with: input[index].box) > threshold }) {
            output.append(input[index])
        }
    }
    return output
}
