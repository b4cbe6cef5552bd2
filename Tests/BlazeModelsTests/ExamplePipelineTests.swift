import BlazeImageIO
import BlazeModels
import BlazeSegmentation
import BlazeTestSupport
import Foundation
import Testing

// The example of Documentation/AddingAPipeline.md, compiled and run: a pipeline costs its own logic only. It
// reports how much of a picture is a person, from MediaPipe's selfie segmentation model.

/// The pipeline's errors: the shared ones, and one of its own.
enum PersonCoverageError: PipelineFailure {
    case pipeline(PipelineError)
    /// The model's mask has NaN or infinite values.
    case nonFiniteMask(path: String)

    static let pipelineName = "person coverage"

    var description: String {
        switch self {
        case let .pipeline(error): return error.description(pipeline: Self.pipelineName)
        case let .nonFiniteMask(path): return "model \(path) gave a non-finite mask"
        }
    }
}

/// How much of a picture is a person: the fraction of the model's mask above `threshold`.
final class PersonCoverage: @unchecked Sendable {
    struct Options: PipelineOptions {
        /// A mask value above this is a person, 0...1.
        var threshold: Float = 0.5
        var threadCount = 1

        var problems: [String?] { [OptionCheck.fraction(threshold, "threshold")] }
    }

    let options: Options
    private let session: ModelSession
    private let mask: ModelSession.Output

    convenience init(modelsDirectory: String? = nil, options: Options = Options()) throws(PersonCoverageError) {
        try self.init(modelPath: try PersonCoverageError.locateModel(.selfieSegmentation, in: modelsDirectory),
                      options: options)
    }

    init(modelPath: String, options: Options = Options()) throws(PersonCoverageError) {
        try options.validate(as: PersonCoverageError.self)
        do {
            session = try ModelSession(modelPath: modelPath,
                                       conversion: .init(range: 0...1, fit: .stretch, border: .zero, sampling: .warp),
                                       threadCount: options.threadCount)
        } catch {
            throw .session(error, modelPath: modelPath)
        }
        guard let mask = session.outputs.first(where: { $0.shape.count == 4 && $0.shape.last == 1 }) else {
            throw .incompatibleModel(path: modelPath, reason: "expected a 1xHxWx1 mask, the model has \(session.outputs.map(\.shape))")
        }
        self.options = options
        self.mask = mask
    }

    /// The fraction of `image` (0...1) that is a person.
    func coverage(of image: ImageView) throws(PersonCoverageError) -> Double {
        let mask = mask, threshold = options.threshold
        let counted: (person: Int, finite: Bool)
        do {
            counted = try session.run(image) { outputs, _ in
                let values = outputs[mask]
                return (values.reduce(0) { $0 + ($1 > threshold ? 1 : 0) }, values.allSatisfy(\.isFinite))
            }
        } catch {
            throw .session(error, modelPath: session.modelPath)
        }
        guard counted.finite else { throw .nonFiniteMask(path: session.modelPath) }
        return Double(counted.person) / Double(mask.elementCount)
    }
}

@Suite("The example pipeline of AddingAPipeline.md")
struct ExamplePipelineTests {
    static let picture = TestResources.modelsDirectory.appendingPathComponent("samples/astronaut.png").path

    @Test("its coverage is the segmenter's model-size mask above 0.5, counted")
    func coverage() throws {
        let image = try ImageDecoder.decode(contentsOf: Self.picture)
        let models = TestResources.modelsDirectory.path
        let coverage = try image.withView { try PersonCoverage(modelsDirectory: models).coverage(of: $0) }
        let mask = try image.withView { try PersonSegmenter(modelsDirectory: models).segment($0, resolution: .model) }
        let expected = Double(mask.values.filter { $0 > 0.5 }.count) / Double(mask.values.count)
        #expect(coverage == expected)
        #expect(coverage > 0.2 && coverage < 0.9, "the astronaut fills much of the picture")
    }

    @Test("the shared failures come from the scaffold: missing model, bad options, a model of another kind")
    func failures() throws {
        let folder = NSTemporaryDirectory()
        #expect(throws: PersonCoverageError.modelNotFound(file: "selfie_segmentation.tflite", searched: [folder])) {
            try PersonCoverage(modelsDirectory: folder)
        }
        #expect(throws: PersonCoverageError.invalidOptions("threshold 2.0 is outside 0...1")) {
            try PersonCoverage(modelsDirectory: TestResources.modelsDirectory.path, options: .init(threshold: 2))
        }
        let detector = try TestResources.modelPath(.shortRange)
        do throws(PersonCoverageError) {
            _ = try PersonCoverage(modelPath: detector)
            Issue.record("a face detector was taken for a segmentation model")
        } catch {
            guard case let .pipeline(.incompatibleModel(_, reason)) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("1xHxWx1"))
            #expect(error.description.hasPrefix("model "), "\(error.description)")
        }
    }
}
