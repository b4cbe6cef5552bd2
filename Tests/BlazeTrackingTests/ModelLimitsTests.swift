import BlazeTestSupport
import BlazeTracking
import Testing

/// `FaceTracker.Options.modelLimits` reach the tracker's landmarker and detector.
@Suite("Face tracker model limits")
struct TrackerModelLimitsTests {
    @Test("the default options carry the interpreter's limits to the landmarker")
    func defaults() {
        #expect(FaceTracker.Options().modelLimits == ModelLimits())
        #expect(FaceTracker.Options().landmarkerOptions.modelLimits == ModelLimits())
        let lowered = FaceTracker.Options(modelLimits: ModelLimits(maximumArenaBytes: 1 << 24))
        #expect(lowered.landmarkerOptions.modelLimits == ModelLimits(maximumArenaBytes: 1 << 24))
    }

    @Test("a limit the detector fits but the attention mesh (712 operators) does not fails as .landmarker(.invalidModel)")
    func meshLimit() throws {
        let mesh = try TestResources.modelPath(.faceMeshAttention)
        let options = FaceTracker.Options(detector: .shortRange, modelLimits: ModelLimits(maximumOperatorCount: 400))
        #expect(throws: FaceTrackerError.landmarker(.invalidModel(path: mesh, error: .tooManyOperators(count: 712, limit: 400)))) {
            try FaceTracker(options: options, modelsDirectory: SyntheticFrames.modelsDirectory)
        }
    }

    @Test("a limit below the full-range detector's 354 operators fails on the detector")
    func detectorLimit() throws {
        let detector = try TestResources.modelPath(.fullRange)
        let options = FaceTracker.Options(modelLimits: ModelLimits(maximumOperatorCount: 353))
        let expected = FaceTrackerError.landmarker(.detectionFailed(.invalidModel(
            path: detector, error: .tooManyOperators(count: 354, limit: 353))))
        #expect(throws: expected) { try FaceTracker(options: options, modelsDirectory: SyntheticFrames.modelsDirectory) }
    }
}
