import BlazeFace
import BlazeTestSupport
import Testing

/// `FaceDetector.Options.modelLimits`: the interpreter's defaults unless lowered; a model past a lowered limit is
/// `.invalidModel` naming the limit, and a limit the model fits gives the default detector's faces.
@Suite("Face detector model limits")
struct DetectorModelLimitsTests {
    static var modelsDirectory: String { TestResources.modelsDirectory.path }

    @Test("the default options carry the interpreter's limits")
    func defaults() {
        #expect(FaceDetector.Options().modelLimits == ModelLimits())
        #expect(FaceDetector.Options(threadCount: 2) == FaceDetector.Options(threadCount: 2, modelLimits: ModelLimits()))
    }

    @Test("one operator fewer than the short-range model's 164 fails with .invalidModel naming the limit")
    func operatorLimit() throws {
        let path = try TestResources.modelPath(.shortRange)
        #expect(throws: FaceDetectorError.invalidModel(path: path, error: .tooManyOperators(count: 164, limit: 163))) {
            try FaceDetector(model: .shortRange, modelsDirectory: path,
                             options: .init(modelLimits: .init(maximumOperatorCount: 163)))
        }
        // The same through the initializer for files you bring.
        #expect(throws: FaceDetectorError.invalidModel(path: path, error: .tooManyOperators(count: 164, limit: 100))) {
            try FaceDetector(modelPath: path, configuration: FaceDetector.Model.shortRange.configuration,
                             options: .init(modelLimits: .init(maximumOperatorCount: 100)))
        }
    }

    @Test("a work limit below the model's multiply-accumulates fails; limits the model fits give the same faces")
    func workLimit() throws {
        do {
            _ = try FaceDetector(model: .shortRange, modelsDirectory: Self.modelsDirectory,
                                 options: .init(modelLimits: .init(maximumMultiplyAccumulates: 10_000_000)))
            Issue.record("the detector loaded with a limit of 10^7 multiply-accumulates")
        } catch {
            guard case let .pipeline(.invalidModel(_, .tooMuchWork(work, limit))) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(limit == 10_000_000 && work > limit)
            #expect(error.description.contains("more than the limit of 10000000"))
        }
        let tight = try FaceDetector(model: .shortRange, modelsDirectory: Self.modelsDirectory,
                                     options: .init(modelLimits: .init(maximumArenaBytes: 16 << 20,
                                                                       maximumMultiplyAccumulates: 100_000_000,
                                                                       maximumConstantBytes: 16 << 20,
                                                                       maximumOperatorCount: 164)))
        let standard = try FaceDetector(model: .shortRange, modelsDirectory: Self.modelsDirectory)
        let picture = try Samples.astronaut()
        let faces = try picture.detect(with: tight)
        #expect(faces.count == 1)
        #expect(faces == (try picture.detect(with: standard)))
    }
}
