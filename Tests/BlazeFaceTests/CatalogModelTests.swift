import BlazeAnchors
import BlazeFace
import BlazeModels
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
    }
}
