import BlazeSegmentation
import BlazeTestSupport
import Testing

/// `PersonSegmenter.Options.modelLimits`: the interpreter's defaults unless lowered; both models of `.automatic`
/// load under them, and a model past one is `.invalidModel` naming it. The selfie models have 246 operators each.
@Suite("Person segmenter model limits")
struct SegmenterModelLimitsTests {
    @Test("the default options carry the interpreter's limits")
    func defaults() {
        #expect(PersonSegmenter.Options().modelLimits == ModelLimits())
        #expect(PersonSegmenter.Options(smoothing: 0.5) == PersonSegmenter.Options(smoothing: 0.5, modelLimits: ModelLimits()))
    }

    @Test("one operator fewer than the general model's fails with .invalidModel naming the limit; 246 loads both")
    func operatorLimit() throws {
        let general = try TestResources.modelPath(.selfieSegmentation)
        #expect(throws: PersonSegmenterError.invalidModel(path: general, error: .tooManyOperators(count: 246, limit: 245))) {
            try PersonSegmenter(model: .automatic, modelsDirectory: SegmentationSamples.modelsDirectory,
                                options: .init(modelLimits: .init(maximumOperatorCount: 245)))
        }
        let segmenter = try PersonSegmenter(model: .automatic, modelsDirectory: SegmentationSamples.modelsDirectory,
                                            options: .init(modelLimits: .init(maximumOperatorCount: 246)))
        #expect(segmenter.modelPaths.count == 2)
    }

    @Test("an arena limit below the landscape model's activations fails on it")
    func arenaLimit() throws {
        let landscape = try TestResources.modelPath(.selfieSegmentationLandscape)
        do {
            _ = try PersonSegmenter(modelPath: landscape, options: .init(modelLimits: .init(maximumArenaBytes: 1 << 20)))
            Issue.record("the segmenter loaded with a 1 MiB arena")
        } catch {
            guard case let .pipeline(.invalidModel(path, .arenaTooLarge(bytes, limit))) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == landscape && limit == 1 << 20 && bytes > limit)
        }
    }
}
