import BlazeAnchors
import BlazeFace
import BlazeModels
import BlazeTestSupport
import Testing

@Suite("FaceDetector.Model and the model catalog")
struct CatalogModelTests {
    @Test("every catalog face detector is a FaceDetector.Model, and nothing else is")
    func mapping() {
        for entry in ModelCatalog.entries {
            let model = FaceDetector.Model(entry.name)
            #expect((model != nil) == (entry.task == .faceDetection), "\(entry.name)")
            if let model { #expect(model.catalogName == entry.canonicalName, "\(entry.name)") }
        }
        #expect(FaceDetector.Model(.front) == .shortRange)
        for model in FaceDetector.Model.allCases {
            #expect(FaceDetector.Model(model.catalogName) == model)
            #expect(model.fileName == model.catalogName.fileName)
        }
        #expect(FaceDetector.Model.shortRange.fileName == "face_detection_short_range.tflite")
    }

    @Test("each configuration fits its catalog entry's tensors", arguments: FaceDetector.Model.allCases)
    func configurationFitsTensors(_ model: FaceDetector.Model) throws {
        let entry = model.catalogEntry, configuration = model.configuration
        let anchors = try configuration.anchors.generateAnchors().count
        #expect(entry.inputs.map(\.shape) == [[1, configuration.anchors.inputHeight, configuration.anchors.inputWidth, 3]])
        #expect(entry.outputs.map(\.shape) == [[1, anchors, configuration.decoding.numCoordinates], [1, anchors, 1]])
        #expect(configuration.inputRange == entry.inputRange)
        #expect(configuration.regressorsOutput == entry.outputs[0].name)
        #expect(configuration.scoresOutput == entry.outputs[1].name)
    }

    @Test("outputs are taken by the configuration's names; a wrong name or a swapped pair is refused")
    func outputsByName() throws {
        let path = try TestResources.modelPath(.shortRange)
        var configuration = FaceDetector.Model.shortRange.configuration
        _ = try FaceDetector(modelPath: path, configuration: configuration)
        var byShape = configuration
        byShape.regressorsOutput = nil
        byShape.scoresOutput = nil
        _ = try FaceDetector(modelPath: path, configuration: byShape)
        configuration.scoresOutput = "scores"
        #expect {
            try FaceDetector(modelPath: path, configuration: configuration)
        } throws: { error in
            guard case let .pipeline(.incompatibleModel(_, reason))? = error as? FaceDetectorError else { return false }
            return reason.contains("\"scores\"") && reason.contains("classificators")
        }
        var swapped = FaceDetector.Model.shortRange.configuration
        (swapped.regressorsOutput, swapped.scoresOutput) = (swapped.scoresOutput, swapped.regressorsOutput)
        #expect(throws: FaceDetectorError.self) { try FaceDetector(modelPath: path, configuration: swapped) }
    }
}
