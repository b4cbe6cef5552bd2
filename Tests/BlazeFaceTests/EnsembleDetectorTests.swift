import BlazeFace
import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// `FaceDetector(models:)`: several models on one picture, their faces merged.
@Suite("Ensemble detector")
struct EnsembleDetectorTests {
    static let models = TestResources.modelsDirectory.path

    static func faces(_ detector: FaceDetector, _ image: DecodedImage) throws -> [Face] {
        try image.withView { try detector.detect($0) }
    }

    @Test("one model is exactly that model's detector")
    func oneModel() throws {
        let image = try Samples.decode("multi_face.jpg")
        let single = try FaceDetector(model: .fullRange, modelsDirectory: Self.models)
        let list = try FaceDetector(models: [.fullRange], modelsDirectory: Self.models)
        #expect(try Self.faces(list, image) == Self.faces(single, image))
        #expect(list.modelPaths == [single.modelPath] && list.shrinkOnLoadLongSide == single.shrinkOnLoadLongSide)
    }

    @Test("the still-picture models: every face each model finds at 0.6, once, on the group photos and a close-up")
    func stillPictures() throws {
        let ensemble = try FaceDetector(models: FaceDetector.stillPictureModels, modelsDirectory: Self.models)
        #expect(ensemble.minimumScore == 0.6 && ensemble.modelPaths.count == 3)
        #expect(ensemble.shrinkOnLoadLongSide == 9 * 192)
        // A 112-pixel close-up of the obama sample's face (its square, 1.25 times the face, box-reduced).
        let obama = try Samples.rgb("obama.jpg")
        let square = obama.cropped(x: 320..<666, y: 100..<446)
        let closeup = LargeSamples.resized(
            ImageBuffer(width: square.width, height: square.height, pixelFormat: .rgb8, pixels: square.pixels),
            width: 112, height: 112)
        for image in [try Samples.decode("multi_face.jpg"), try Samples.decode("t1.jpg"), closeup] {
            let merged = try Self.faces(ensemble, image)
            for model in FaceDetector.stillPictureModels {
                let single = try FaceDetector(model: model, modelsDirectory: Self.models,
                                              options: .init(minimumScore: 0.6))
                for face in try Self.faces(single, image) {
                    let best = merged.map { $0.boundingBox.iou(face.boundingBox) }.max() ?? 0
                    #expect(best > 0.3, "\(model): a face at \(face.boundingBox) is not in the merged faces")
                }
            }
            // No two merged faces overlap above the NMS threshold.
            for (i, a) in merged.enumerated() {
                for b in merged[(i + 1)...] { #expect(a.boundingBox.iou(b.boundingBox) <= 0.3) }
            }
            #expect(merged.map(\.score) == merged.map(\.score).sorted(by: >))
        }
        #expect(try Self.faces(ensemble, closeup).count == 1)
    }

    @Test("an empty list of models is refused")
    func noModel() {
        #expect(throws: FaceDetectorError.self) { try FaceDetector(models: [], modelsDirectory: Self.models) }
    }
}
