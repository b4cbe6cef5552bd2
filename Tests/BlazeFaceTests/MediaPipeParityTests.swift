import BlazeFace
import BlazeTestSupport
import Foundation
import Testing

/// End-to-end parity with MediaPipe Tasks 1.2.2's FaceDetector (Tests/Goldens/mediapipe/detections.json):
/// same pictures, same settings (minimum score 0.5, weighted NMS at IoU 0.5), same faces.
///
/// Boxes: MediaPipe reports integer pixel boxes, `int(relative * size)` truncated toward zero, then origin
/// and size clamped to `[0, size]`. Our `boundingBox` is put through the same transformation before the
/// IoU is taken (so the IoU compares like with like; `astronaut_crop_left200_312x512` has a clamped origin).
/// Keypoints are compared in pixels against MediaPipe's `x_px`, `y_px`.
@Suite("MediaPipe parity")
struct MediaPipeParityTests {
    static let models: [FaceDetector.Model] = [.shortRange, .fullRange]

    /// The goldens' key for a model (`short_range` ...), from the model catalog's file name.
    static func key(_ model: FaceDetector.Model) throws -> String {
        try GoldenManifest.key(for: model.catalogName)
    }

    /// MediaPipe's pixel box for one of our boxes in a `width` x `height` picture.
    static func mediaPipePixelBox(_ box: Rect, width: Int, height: Int) -> Rect {
        func truncated(_ value: Double, _ limit: Int) -> Double {
            Double(min(max(Int(value.rounded(.towardZero)), 0), limit))
        }
        return Rect(x: truncated(box.x, width), y: truncated(box.y, height),
                    width: truncated(box.width, width), height: truncated(box.height, height))
    }

    @Test("the recipes rebuild MediaPipe's pictures byte for byte", arguments: try MediaPipeGoldens.load().images.keys.sorted())
    func recipes(_ name: String) throws {
        let spec = try #require(try MediaPipeGoldens.load().images[name])
        let image = try Samples.picture(name)
        #expect(SHA256.hex(image.pixels) == spec.rgbSha256, "\(name): the rebuilt RGB bytes differ from MediaPipe's")
    }

    /// One picture's agreement.
    struct PictureStats: Sendable {
        var matched = 0
        var exactBoxes = 0
        var worstIoU = 1.0
        var worstScore = 0.0
        var worstKeypoint = 0.0
        var worstBoxPixels = 0.0
    }

    /// Per-model stats of the pictures done so far; the last picture of a model prints the summary.
    static let stats = Cache<String, Collector<PictureStats>>()

    /// Every (model, picture) pair, run as separate test cases so they spread over the cores.
    static let cases: [(FaceDetector.Model, String)] = {
        let names = (try? MediaPipeGoldens.load().images.keys.sorted()) ?? []
        return models.flatMap { model in names.map { (model, $0) } }
    }()

    @Test("every MediaPipe face is found, with the same score, box and keypoints", arguments: cases)
    func parity(_ model: FaceDetector.Model, _ name: String) throws {
        let goldens = try MediaPipeGoldens.load()
        let key = try Self.key(model)
        let theirs = try #require(goldens.results[key]?[name], "\(key): no result for \(name)")
        #expect(try Detectors.shared(model).minimumScore == 0.5)
        let image = try Samples.picture(name)
        let ours = try ReferenceFaces.faces(model, name)  // the shared detector's faces for this picture
        #expect(zip(ours, ours.dropFirst()).allSatisfy { $0.score >= $1.score }, "\(key) \(name): not sorted by score")
        let oursPixel = ours.map { Self.mediaPipePixelBox($0.boundingBox, width: image.width, height: image.height) }

        var stats = PictureStats()
        var used = Set<Int>()
        for face in theirs {
            let box = face.boundingBox.rect
            let candidates = ours.indices.filter { !used.contains($0) }
            let best = candidates.max { oursPixel[$0].iou(box) < oursPixel[$1].iou(box) }
            let iou = best.map { oursPixel[$0].iou(box) } ?? 0
            guard let best, iou >= 0.9 else {
                if face.score > 0.6 {
                    Issue.record("\(key) \(name): MediaPipe's face \(face.score) \(box) is missing; ours: \(describe(ours))")
                }
                continue
            }
            used.insert(best)
            let ourFace = ours[best]
            let scoreDifference = abs(Double(ourFace.score) - face.score)
            #expect(scoreDifference <= 0.02, "\(key) \(name): score \(ourFace.score) vs MediaPipe's \(face.score)")
            var keypointDistance = 0.0
            for (kind, reference) in zip(FaceKeypoints.Kind.allCases, face.keypoints) {
                let point = ourFace.keypoints[kind]
                keypointDistance = max(keypointDistance, point.distance(to: Point(x: reference.xPx, y: reference.yPx)))
            }
            #expect(keypointDistance <= 1, "\(key) \(name): keypoints \(keypointDistance) px from MediaPipe's")
            let pixel = oursPixel[best]
            let boxPixels = max(abs(pixel.x - box.x), abs(pixel.y - box.y), abs(pixel.width - box.width),
                                abs(pixel.height - box.height))
            stats.matched += 1
            if boxPixels == 0 { stats.exactBoxes += 1 }
            stats.worstIoU = min(stats.worstIoU, iou)
            stats.worstScore = max(stats.worstScore, scoreDifference)
            stats.worstKeypoint = max(stats.worstKeypoint, keypointDistance)
            stats.worstBoxPixels = max(stats.worstBoxPixels, boxPixels)
        }
        for index in ours.indices where ours[index].score > 0.6 && !used.contains(index) {
            Issue.record("\(key) \(name): we report \(ours[index].score) \(ours[index].boundingBox), which MediaPipe does not")
        }
        #expect(stats.matched >= theirs.filter { $0.score > 0.6 }.count)

        let collector = try Self.stats.value(key) { Collector<PictureStats>() }
        let done = collector.appending(stats)
        guard done.count == goldens.images.count else { return }
        let matched = done.map(\.matched).reduce(0, +)
        let exact = done.map(\.exactBoxes).reduce(0, +)
        print("parity \(key): \(matched) faces matched, worst IoU \(format(done.map(\.worstIoU).min() ?? 1)) "
              + "(pixel boxes identical: \(exact)/\(matched), worst \(Int(done.map(\.worstBoxPixels).max() ?? 0)) px), "
              + "worst Δscore \(formatExp(done.map(\.worstScore).max() ?? 0)), "
              + "worst keypoint \(formatExp(done.map(\.worstKeypoint).max() ?? 0)) px")
    }

    @Test("keypoints are named from the subject's point of view")
    func keypointSemantics() throws {
        let faces = try ReferenceFaces.faces(.shortRange, "astronaut")
        let face = try #require(faces.first)
        #expect(faces.count == 1)
        // The subject's right eye appears on the viewer's left in an unmirrored photo.
        #expect(face.keypoints.rightEye.x < face.keypoints.leftEye.x)
        #expect(face.keypoints.rightEarTragion.x < face.keypoints.leftEarTragion.x)
        #expect(face.keypoints.rightEye.y < face.keypoints.noseTip.y)
        #expect(face.keypoints.noseTip.y < face.keypoints.mouthCenter.y)
        #expect(abs(face.rollDegrees) < 15)
        let area = face.boundingBox.padded(by: 0.25)
        for (kind, point) in face.keypoints.all {
            #expect(point.x >= area.minX && point.x <= area.maxX && point.y >= area.minY && point.y <= area.maxY,
                    "\(kind) \(point) is outside \(area)")
        }
    }
}
