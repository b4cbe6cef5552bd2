import ArgumentParser
import BlazeAnchors
import BlazeFace
import BlazeModels
import Foundation

/// `--model`: a face detector of the model catalog by name (`short-range` ...), or the path of a .tflite file.
enum ModelChoice: ExpressibleByArgument, Equatable {
    case named(FaceDetector.Model)
    case path(String)

    /// The catalog's face detectors, by command-line name (aliases such as `front` are accepted but not listed).
    static var detectorNames: [String] {
        ModelCatalog.entries.filter { $0.task == .faceDetection && $0.aliasOf == nil }.map(\.name.rawValue)
    }

    init?(argument: String) {
        if let name = ModelName(rawValue: argument) {
            guard let model = FaceDetector.Model(name) else { return nil }  // a catalog model, not a detector
            self = .named(model)
        } else if argument.hasSuffix(".tflite") || argument.contains("/") { self = .path(argument) }
        else { return nil }
    }

    static var allValueStrings: [String] { detectorNames + ["PATH.tflite"] }

    var defaultValueDescription: String {
        switch self {
        case .named(let model): return model.catalogName.rawValue
        case .path(let path): return path
        }
    }

    /// The anchors and decoding for a detector file you bring: those of the catalog detector with the same
    /// file name, else of the first catalog detector with the same input size (128, 192 or 256).
    static func configuration(forModelAt path: String) throws -> FaceDetector.Configuration {
        if let entry = ModelCatalog.entry(fileName: (path as NSString).lastPathComponent),
           let model = FaceDetector.Model(entry.name) {
            return model.configuration
        }
        let size = try ModelInputSize.read(path)
        let model = ModelCatalog.entries.lazy
            .filter { $0.task == .faceDetection && $0.inputs.first?.shape == [1, size, size, 3] }
            .compactMap { FaceDetector.Model($0.name) }.first
        guard let model else {
            throw CommandFailure("\(path): no known BlazeFace configuration for a \(size)x\(size) input")
        }
        return model.configuration
    }
}

extension NMSAlgorithm: ExpressibleByArgument {}

/// `--crop`: how the image is fitted into the model's square input.
enum CropChoice: String, ExpressibleByArgument, CaseIterable {
    case letterbox
    case center

    var preprocessing: FaceDetector.Preprocessing { self == .letterbox ? .letterbox : .centerCrop }
}

import BlazeTFLite

/// Reads the square input size of a detector model file.
enum ModelInputSize {
    static func read(_ path: String) throws -> Int {
        let model = try Model(path: path)
        let graph = model.mainSubgraph
        guard graph.inputs.count == 1 else { throw CommandFailure("\(path): a detector has one input, this model has \(graph.inputs.count)") }
        let shape = graph.tensors[graph.inputs[0]].shape
        guard shape.count == 4, shape[1] == shape[2] else {
            throw CommandFailure("\(path): a detector's input is 1xSxSx3, this model's is \(shape)")
        }
        return shape[1]
    }
}
