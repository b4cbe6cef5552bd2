import BlazeFace
import BlazeModels
import BlazeRuntime
import BlazeTFLite

/// The anchors and decoding of a detector file you bring (`FaceJobOptions.DetectorSource.file`).
public enum DetectorFile {
    /// The configuration of the catalog detector with the same file name, else of the first catalog detector
    /// with the same square input (128, 192 or 256 pixels).
    /// - Parameter path: the `.tflite` detector.
    /// - Returns: the configuration to run it with.
    /// - Throws: `FaceDetectorError.pipeline(.invalidModel)` when the file cannot be read;
    ///   `.invalidConfiguration` when its input is not one square picture, or no catalog detector has its size.
    public static func configuration(forModelAt path: String) throws(FaceDetectorError) -> FaceDetector.Configuration {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        if let entry = ModelCatalog.entry(fileName: fileName), let model = FaceDetector.Model(entry.name) {
            return model.configuration
        }
        let size = try inputSize(path)
        let model = ModelCatalog.entries.lazy
            .filter { $0.task == .faceDetection && $0.inputs.first?.shape == [1, size, size, 3] }
            .compactMap { FaceDetector.Model($0.name) }.first
        guard let model else {
            throw .invalidConfiguration("\(path): no known BlazeFace configuration for a \(size)x\(size) input")
        }
        return model.configuration
    }

    /// The side of the detector's square 1xSxSx3 input.
    private static func inputSize(_ path: String) throws(FaceDetectorError) -> Int {
        let model: Model
        do {
            model = try Model(path: path)
        } catch {
            throw .pipeline(.invalidModel(path: path, error: .invalidModel(error)))
        }
        let graph = model.mainSubgraph
        guard graph.inputs.count == 1 else {
            throw .invalidConfiguration("\(path): a detector has one input, this model has \(graph.inputs.count)")
        }
        let shape = graph.tensors[graph.inputs[0]].shape
        guard shape.count == 4, shape[1] == shape[2], shape[3] == 3 else {
            throw .invalidConfiguration("\(path): a detector's input is 1xSxSx3, this model's is \(shape)")
        }
        return shape[1]
    }
}
