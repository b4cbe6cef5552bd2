import BlazeFaceMesh
import BlazeTestSupport
import Testing

/// `FaceLandmarker.Options.modelLimits` reach every model the landmarker loads: the detector, the mesh and the
/// iris model, each failing with its own typed error naming the limit. Operator counts: short-range detector
/// 164, attention mesh 712, the older 468-point mesh (face_landmark.tflite) 97, iris 169.
@Suite("Face landmarker model limits")
struct LandmarkerModelLimitsTests {
    static func options(operators: Int) -> FaceLandmarker.Options {
        var options = FaceLandmarker.Options.mediaPipe()
        options.modelLimits = ModelLimits(maximumOperatorCount: operators)
        return options
    }

    @Test("the default options carry the interpreter's limits")
    func defaults() {
        #expect(FaceLandmarker.Options().modelLimits == ModelLimits())
        #expect(FaceLandmarker.Options.mediaPipe().modelLimits == ModelLimits())
    }

    @Test("a limit between the detector's and the mesh's operator counts fails on the mesh")
    func meshLimit() throws {
        let path = try TestResources.modelPath(.faceMeshAttention)
        #expect(throws: FaceLandmarkerError.invalidModel(path: path, error: .tooManyOperators(count: 712, limit: 400))) {
            try MeshSamples.landmarker(.attention, options: Self.options(operators: 400))
        }
    }

    @Test("a limit below the detector's operator count fails on the detector, which loads first")
    func detectorLimit() throws {
        let path = try TestResources.modelPath(.shortRange)
        let expected = FaceLandmarkerError.detectionFailed(.invalidModel(path: path, error: .tooManyOperators(count: 164, limit: 120)))
        #expect(throws: expected) { try MeshSamples.landmarker(.mesh, options: Self.options(operators: 120)) }
    }

    @Test("a limit between the 468-point mesh's and the iris model's counts fails on the iris model")
    func irisLimit() throws {
        let detector = try FaceDetector(model: .shortRange, modelsDirectory: MeshSamples.modelsDirectory)
        let iris = try TestResources.modelPath(.iris)
        #expect(throws: FaceLandmarkerError.invalidModel(path: iris, error: .tooManyOperators(count: 169, limit: 150))) {
            try FaceLandmarker(model: .meshWithIris, meshModelPath: try TestResources.modelPath(.faceMeshFDLite),
                               irisModelPath: iris, detector: detector, options: Self.options(operators: 150))
        }
        // At the iris model's own count everything loads and finds the astronaut's face.
        let landmarker = try FaceLandmarker(model: .meshWithIris,
                                            meshModelPath: try TestResources.modelPath(.faceMeshFDLite),
                                            irisModelPath: iris, detector: detector, options: Self.options(operators: 169))
        #expect(try MeshSamples.astronaut().withView { try landmarker.detect($0) }.count == 1)
    }
}
