import BlazeFace
import BlazeTestSupport
import Foundation
import Testing

@Suite("Options")
struct OptionsTests {
    @Test("maximumFaces 1 keeps the best face")
    func maximumFaces() throws {
        let image = try Samples.picture("astronaut_pair_512x512")
        let all = try ReferenceFaces.faces(.shortRange, "astronaut_pair_512x512")
        #expect(all.count == 2)
        var options = Detectors.mediaPipeOptions
        options.maximumFaces = 1
        let one = try image.detect(with: try Detectors.shared(.shortRange, options: options))
        #expect(one.count == 1)
        #expect(one.first == all.first)
        #expect(one.first?.score == all.map(\.score).max())
    }

    @Test("hard and weighted suppression agree on the faces")
    func hardAndWeighted() throws {
        let image = try Samples.picture("astronaut_pair_512x512")
        let weighted = try ReferenceFaces.faces(.shortRange, "astronaut_pair_512x512")
        var options = Detectors.mediaPipeOptions
        options.nms = .hard
        let hard = try image.detect(with: try Detectors.shared(.shortRange, options: options))
        #expect(hard.count == 2, "\(describe(hard))")
        // The best detection of each cluster survives hard suppression; weighted keeps its score.
        #expect(hard.map(\.score) == weighted.map(\.score))
        let difference = try #require(FaceListDifference(hard, weighted))
        #expect(difference.worstIoU >= 0.8, "hard vs weighted IoU \(difference.worstIoU)")
        #expect(difference.worstKeypoint <= 10, "hard vs weighted keypoints \(difference.worstKeypoint) px")
        // One face in each half of the picture.
        #expect(Set(hard.map { $0.boundingBox.center.x < 256 }) == [true, false])
    }

    @Test("minimumScore filters")
    func minimumScore() throws {
        let reference = try ReferenceFaces.faces(.shortRange, "astronaut")
        #expect(reference.count == 1 && reference[0].score < 0.95)
        let strict = try Samples.astronaut().detect(with: try Detectors.shared(.shortRange, options: .init(minimumScore: 0.95)))
        #expect(strict.isEmpty, "\(describe(strict))")
    }

    @Test("centre crop misses faces outside the centre square and maps the others back")
    func centerCrop() throws {
        let letterbox = try Detectors.shared(.shortRange)
        var options = Detectors.mediaPipeOptions
        options.preprocessing = .centerCrop
        let crop = try Detectors.shared(.shortRange, options: options)

        // 1440x720: the centre square is x 360..<1080. The astronaut's head (columns 163..<300, rows
        // 40..<280) scaled 3x at the left edge puts the face at x ≈ 42...327, outside it.
        let head = try Samples.astronaut().cropped(x: 163..<300, y: 40..<280).upscaled(3)
        var left = RGBImage(width: 1440, height: 720, fill: 128)
        left.place(head, x: 0, y: 0)
        let leftLetterbox = try left.detect(with: letterbox)
        let leftCrop = try left.detect(with: crop)
        #expect(leftLetterbox.count == 1, "\(describe(leftLetterbox))")
        #expect(leftCrop.count < leftLetterbox.count, "\(describe(leftCrop))")
        if let face = leftLetterbox.first { #expect(face.boundingBox.maxX < 360, "\(face.boundingBox)") }

        // The zoomed frame's face (x ≈ 496...781) is inside the centre square: both find it at the same place.
        let middle = try zoomedFrame()
        let middleLetterbox = try middle.detect(with: letterbox)
        let middleCrop = try middle.detect(with: crop)
        let difference = try #require(FaceListDifference(middleCrop, middleLetterbox),
                                      "\(describe(middleCrop)) vs \(describe(middleLetterbox))")
        #expect(middleCrop.count == 1)
        #expect(difference.worstIoU >= 0.8, "IoU \(difference.worstIoU)")
        // The model sees the face at 28 px (letterbox) and 50 px (crop): keypoints agree within 10% of its size.
        let size = middleLetterbox.first?.boundingBox.width ?? 0
        #expect(difference.worstKeypoint <= 0.1 * size, "keypoints \(difference.worstKeypoint) px apart, face \(size) px")
    }

    @Test("each model's default minimum score and input size")
    func defaults() throws {
        let cases: [(FaceDetector.Model, Float, Int)] = [
            (.shortRange, 0.5, 128), (.fullRange, 0.6, 192), (.fullRangeSparse, 0.6, 192), (.backCamera, 0.65, 256),
        ]
        for (model, score, size) in cases {
            let detector = try Detectors.fresh(model, options: .init())
            #expect(detector.minimumScore == score, "\(model)")
            #expect(detector.inputSize == size, "\(model)")
            #expect(detector.configuration == model.configuration)
            #expect(detector.options == .init())
            #expect(detector.modelPath.hasSuffix("/" + model.fileName))
        }
        let custom = try Detectors.fresh(.backCamera, options: .init(minimumScore: 0.7))
        #expect(custom.minimumScore == 0.7)
        let defaults = FaceDetector.Options()
        #expect(defaults.minimumScore == nil && defaults.nms == .weighted && defaults.iouThreshold == 0.3)
        #expect(defaults.maximumFaces == nil && defaults.threadCount == 1 && defaults.preprocessing == .letterbox)
    }

    @Test("the graph defaults and two threads find the astronaut")
    func graphDefaults() throws {
        let reference = try ReferenceFaces.faces(.shortRange, "astronaut")
        for options in [FaceDetector.Options(), FaceDetector.Options(threadCount: 2)] {
            let faces = try Samples.astronaut().detect(with: try Detectors.shared(.shortRange, options: options))
            let difference = try #require(FaceListDifference(faces, reference), "\(options): \(describe(faces))")
            #expect(difference.worstIoU >= 0.9 && difference.worstScore <= 1e-4, "\(options): IoU \(difference.worstIoU)")
        }
    }
}
