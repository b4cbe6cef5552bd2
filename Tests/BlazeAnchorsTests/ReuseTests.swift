import Testing
import BlazeAnchors

@Suite("Steady state: no reallocation on reuse")
struct ReuseTests {
    /// Short-range-shaped outputs: every 7th anchor scores, each a 20-pixel box with keypoints.
    static func outputs() -> (regressors: [Float], scores: [Float]) {
        var regressors = [Float](repeating: 0, count: 896 * 16)
        var scores = [Float](repeating: -5, count: 896)
        for anchor in stride(from: 0, to: 896, by: 7) {
            scores[anchor] = Float(anchor % 11) / 4
            regressors[anchor * 16 + 0] = Float(anchor % 5) - 2
            regressors[anchor * 16 + 2] = 20
            regressors[anchor * 16 + 3] = 22
            for k in 0..<6 { regressors[anchor * 16 + 4 + 2 * k] = Float(k) }
        }
        return (regressors, scores)
    }

    @Test("decode(into:) and NMS(into:scratch:) keep their buffers on a second call", arguments: NMSAlgorithm.allCases)
    func capacityUnchanged(algorithm: NMSAlgorithm) throws {
        let decoder = try DetectionDecoder(anchorOptions: .shortRange, options: .shortRange)
        let nms = NonMaxSuppression(algorithm: algorithm)
        let (regressors, scores) = Self.outputs()

        var detections: [Detection] = []
        detections.reserveCapacity(decoder.anchors.count)
        var output: [Detection] = []
        output.reserveCapacity(decoder.anchors.count)
        var scratch = NMSScratch()

        func run() throws {
            try regressors.withUnsafeBufferPointer { r in
                try scores.withUnsafeBufferPointer { s in
                    try decoder.decode(regressors: r, scores: s, into: &detections)
                }
            }
            nms(detections, into: &output, scratch: &scratch)
        }
        func state() -> [Int] {
            [detections.capacity, output.capacity, scratch.capacity,
             detections.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) },
             output.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }]
        }

        try run()
        // Copies with their own storage: sharing the buffers would make the second call copy on write.
        let firstDetections = detections.map { $0 }, firstOutput = output.map { $0 }
        let before = state()
        #expect(detections.count > 50)
        #expect(output.count > 0 && output.count < detections.count)
        #expect(scratch.capacity >= detections.count)

        try run()
        #expect(state() == before)
        #expect(detections == firstDetections)
        #expect(output == firstOutput)
    }

    @Test("A scratch reserved up front does not grow")
    func reservedScratch() {
        var scratch = NMSScratch()
        #expect(scratch.capacity == 0)
        scratch.reserveCapacity(100)
        #expect(scratch.capacity == 100)
        var output: [Detection] = []
        let input = (0..<60).map { detection(Float($0), 0, Float($0) + 0.5, 1, score: 0.9) }
        NonMaxSuppression()(input, into: &output, scratch: &scratch)
        #expect(scratch.capacity == 100)
        #expect(output.count == 60)
    }
}
