import BlazeAnchors
import Foundation
import Testing

@Suite("Detection decoding")
struct DetectionDecoderTests {
    /// Two anchors: one unit anchor at (0.25, 0.5), one 0.5 x 2 anchor at (0.75, 0.25).
    static let anchors = [
        Anchor(xCenter: 0.25, yCenter: 0.5, width: 1, height: 1),
        Anchor(xCenter: 0.75, yCenter: 0.25, width: 0.5, height: 2),
    ]

    /// Regressors for one anchor with the box (16, -8, 32, 64) and keypoint k at (8k, -4k), scale 128.
    static func row(box: (Float, Float, Float, Float) = (16, -8, 32, 64)) -> [Float] {
        var row: [Float] = [box.0, box.1, box.2, box.3]
        for k in 0..<6 { row += [8 * Float(k), -4 * Float(k)] }
        return row
    }

    static func decoder(_ change: (inout DecodingOptions) -> Void = { _ in }) throws -> DetectionDecoder {
        var options = DecodingOptions.shortRange
        change(&options)
        return try DetectionDecoder(anchors: anchors, options: options)
    }

    @Test("A box and keypoints relative to a unit anchor")
    func boxAndKeypoints() throws {
        let decoder = try Self.decoder()
        let regressors = Self.row() + Self.row()
        let detections = try decoder.decode(regressors: regressors, scores: [0, -10])
        #expect(detections.count == 1)
        let d = try #require(detections.first)
        #expect(d.anchorIndex == 0)
        #expect(d.score == 0.5)  // sigmoid(0) = 0.5, kept: the threshold is inclusive
        // Centre (0.25 + 16/128, 0.5 - 8/128) = (0.375, 0.4375); size (0.25, 0.5).
        #expect(d.box == Box(xMin: 0.25, yMin: 0.1875, xMax: 0.5, yMax: 0.6875))
        #expect(d.box.center == Keypoint(x: 0.375, y: 0.4375))
        #expect(d.keypoints.count == 6)
        for k in 0..<6 {
            #expect(d.keypoints[k] == Keypoint(x: 0.25 + Float(k) / 16, y: 0.5 - Float(k) / 32))
        }
    }

    @Test("Offsets and sizes scale with the anchor's width and height")
    func nonUnitAnchor() throws {
        let decoder = try Self.decoder()
        let detections = try decoder.decode(regressors: Self.row() + Self.row(), scores: [-10, 10])
        let d = try #require(detections.first)
        #expect(d.anchorIndex == 1)
        // Centre (0.75 + 0.125·0.5, 0.25 - 0.0625·2) = (0.8125, 0.125); size (0.25·0.5, 0.5·2) = (0.125, 1).
        #expect(d.box == Box(xMin: 0.75, yMin: -0.375, xMax: 0.875, yMax: 0.625))
        #expect(d.keypoints[2] == Keypoint(x: 0.75 + 16.0 / 128 * 0.5, y: 0.25 - 8.0 / 128 * 2))
    }

    @Test("Score: the logistic of the logit, compared with minScore inclusively")
    func scores() throws {
        let decoder = try Self.decoder()
        let logit = Float(2.1972245773)  // ln 9: sigmoid = 0.9
        let detections = try decoder.decode(regressors: Self.row() + Self.row(), scores: [logit, -0.01])
        #expect(detections.count == 1)
        #expect(close(detections[0].score, 0.9))

        let strict = try Self.decoder { $0.minScore = 0.9000001 }
        #expect(try strict.decode(regressors: Self.row() + Self.row(), scores: [logit, 0]).isEmpty)
    }

    @Test("Logits are clipped to ±scoreClippingThreshold before the sigmoid")
    func clipping() throws {
        let clipped = try Self.decoder { $0.scoreClippingThreshold = 2; $0.minScore = 0 }
        let d = try clipped.decode(regressors: Self.row() + Self.row(), scores: [10, -10])
        #expect(close(d[0].score, 1 / (1 + exp(Float(-2)))))
        #expect(close(d[1].score, 1 / (1 + exp(Float(2)))))

        // The default threshold (100) keeps huge and infinite logits finite.
        let standard = try Self.decoder { $0.minScore = 0 }
        let extreme = try standard.decode(regressors: Self.row() + Self.row(), scores: [.infinity, -.infinity])
        #expect(extreme.map(\.score) == [1, 0])
    }

    @Test("Without the sigmoid the raw value is compared and returned, unclipped")
    func noSigmoid() throws {
        let raw = try Self.decoder { $0.applySigmoid = false; $0.minScore = 150 }
        let d = try raw.decode(regressors: Self.row() + Self.row(), scores: [200, 149])
        #expect(d.map(\.score) == [200])
    }

    @Test("NaN scores are dropped, even with minScore = -infinity")
    func nanScore() throws {
        let all = try Self.decoder { $0.minScore = -.infinity }
        let d = try all.decode(regressors: Self.row() + Self.row(), scores: [.nan, -50])
        #expect(d.map(\.anchorIndex) == [1])
    }

    @Test("Negative and NaN sizes are dropped; zero sizes are kept")
    func sizes() throws {
        let decoder = try Self.decoder { $0.minScore = 0 }
        let negativeWidth = Self.row(box: (0, 0, -1, 10))
        let negativeHeight = Self.row(box: (0, 0, 10, -1))
        let nanHeight = Self.row(box: (0, 0, 10, .nan))
        let zero = Self.row(box: (0, 0, 0, 0))
        #expect(try decoder.decode(regressors: negativeWidth + negativeHeight, scores: [5, 5]).isEmpty)
        let d = try decoder.decode(regressors: nanHeight + zero, scores: [5, 5])
        #expect(d.map(\.anchorIndex) == [1])
        #expect(d[0].box.width == 0 && d[0].box.height == 0)
    }

    @Test("y-first order (reverseOutputOrder = false) swaps x/y and w/h, keypoints too")
    func yFirstOrder() throws {
        let decoder = try Self.decoder { $0.reverseOutputOrder = false }
        // Same geometry as boxAndKeypoints, written y-first.
        var row: [Float] = [-8, 16, 64, 32]
        for k in 0..<6 { row += [-4 * Float(k), 8 * Float(k)] }
        let d = try decoder.decode(regressors: row + row, scores: [5, -5])
        #expect(d.count == 1)
        #expect(d[0].box == Box(xMin: 0.25, yMin: 0.1875, xMax: 0.5, yMax: 0.6875))
        #expect(d[0].keypoints[3] == Keypoint(x: 0.25 + 3.0 / 16, y: 0.5 - 3.0 / 32))
    }

    @Test("flipVertically mirrors y: y → 1 − y for keypoints and the box's y range")
    func flip() throws {
        let decoder = try Self.decoder { $0.flipVertically = true }
        let d = try decoder.decode(regressors: Self.row() + Self.row(), scores: [5, -5])
        #expect(d[0].box == Box(xMin: 0.25, yMin: 0.3125, xMax: 0.5, yMax: 0.8125))
        #expect(d[0].keypoints[1] == Keypoint(x: 0.25 + 1.0 / 16, y: 1 - (0.5 - 1.0 / 32)))
    }

    @Test("Custom layouts: offsets, fewer keypoints, three values per keypoint, separate scales")
    func customLayout() throws {
        let options = DecodingOptions(
            numCoordinates: 12, boxCoordinateOffset: 1, keypointCoordinateOffset: 6, numKeypoints: 2,
            valuesPerKeypoint: 3, xScale: 10, yScale: 20, wScale: 40, hScale: 80, minScore: 0.5)
        let decoder = try DetectionDecoder(anchors: [Anchor(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1)], options: options)
        let row: [Float] = [99, 1, 2, 8, 16, 99, 1, 4, 99, 2, 8, 99]
        let d = try decoder.decode(regressors: row, scores: [1])
        #expect(d.count == 1)
        #expect(close(d[0].box, Box(xCenter: 0.6, yCenter: 0.6, width: 0.2, height: 0.2)))
        #expect(d[0].keypoints.count == 2)
        #expect(close(d[0].keypoints[0], Keypoint(x: 0.6, y: 0.7)))
        #expect(close(d[0].keypoints[1], Keypoint(x: 0.7, y: 0.9)))
    }

    @Test("Buffer sizes must match the anchors")
    func bufferSizes() throws {
        let decoder = try Self.decoder()
        #expect(throws: AnchorError.bufferSizeMismatch(buffer: "regressors", expected: 32, actual: 31)) {
            _ = try decoder.decode(regressors: Array(repeating: 0, count: 31), scores: [0, 0])
        }
        #expect(throws: AnchorError.bufferSizeMismatch(buffer: "scores", expected: 2, actual: 3)) {
            _ = try decoder.decode(regressors: Array(repeating: 0, count: 32), scores: [0, 0, 0])
        }
        var out = [detection(0, 0, 1, 1, score: 1)]
        let regressors = [Float](repeating: 0, count: 16)
        let scores: [Float] = [0, 0]
        #expect(throws: AnchorError.self) {
            try regressors.withUnsafeBufferPointer { r in
                try scores.withUnsafeBufferPointer { s in
                    try decoder.decode(regressors: r, scores: s, into: &out)
                }
            }
        }
        #expect(out.count == 1)  // untouched on error
    }

    @Test func invalidOptions() {
        func error(_ change: (inout DecodingOptions) -> Void) -> AnchorError? {
            var options = DecodingOptions.shortRange
            change(&options)
            do {
                _ = try DetectionDecoder(anchors: Self.anchors, options: options)
                return nil
            } catch {
                return error
            }
        }
        #expect(error { _ in } == nil)
        #expect(error { $0.numCoordinates = 0 } != nil)
        #expect(error { $0.numCoordinates = 15 } != nil)  // keypoints overflow the row
        #expect(error { $0.boxCoordinateOffset = 13 } != nil)
        #expect(error { $0.boxCoordinateOffset = -1 } != nil)
        #expect(error { $0.numKeypoints = 9; $0.numCoordinates = 22 } != nil)
        #expect(error { $0.numKeypoints = -1 } != nil)
        #expect(error { $0.valuesPerKeypoint = 1 } != nil)
        #expect(error { $0.valuesPerKeypoint = .max } != nil)
        #expect(error { $0.keypointCoordinateOffset = 5 } != nil)
        #expect(error { $0.numKeypoints = 0; $0.keypointCoordinateOffset = 100 } == nil)  // unused
        #expect(error { $0.xScale = 0 } != nil)
        #expect(error { $0.hScale = .nan } != nil)
        #expect(error { $0.minScore = .nan } != nil)
        #expect(error { $0.scoreClippingThreshold = -1 } != nil)
        #expect(error { $0.scoreClippingThreshold = .infinity } == nil)

        #expect(throws: AnchorError.noAnchors) { try DetectionDecoder(anchors: [], options: .shortRange) }
        #expect(throws: AnchorError.invalidAnchor(index: 1)) {
            try DetectionDecoder(
                anchors: [Self.anchors[0], Anchor(xCenter: .nan, yCenter: 0, width: 1, height: 1)],
                options: .shortRange)
        }
    }

    @Test("Presets pair with the anchor presets")
    func presets() throws {
        for (anchors, options, count, scale) in [
            (AnchorOptions.shortRange, DecodingOptions.shortRange, 896, Float(128)),
            (.fullRange, .fullRange, 2304, 192),
            (.backCamera, .backCamera, 896, 256),
        ] {
            let decoder = try DetectionDecoder(anchorOptions: anchors, options: options)
            #expect(decoder.scoreCount == count)
            #expect(decoder.regressorCount == count * 16)
            #expect(options.xScale == scale && options.hScale == scale)
            // All-zero regressors, logits 0 → score 0.5: kept by short-range only, each box empty at its anchor.
            let d = try decoder.decode(regressors: Array(repeating: 0, count: count * 16), scores: Array(repeating: 0, count: count))
            #expect(d.count == (options.minScore <= 0.5 ? count : 0))
        }
        #expect(DecodingOptions.shortRange.minScore == 0.5)
        #expect(DecodingOptions.fullRange.minScore == 0.6)
        #expect(DecodingOptions.backCamera.minScore == 0.65)
    }
}
