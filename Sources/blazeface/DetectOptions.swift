import ArgumentParser
import BlazeAnchors
import BlazeFace
import BlazeJobs
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

    /// The job's detector.
    var source: FaceJobOptions.DetectorSource {
        switch self {
        case .named(let model): return .catalog(model)
        case .path(let path): return .file(path)
        }
    }
}

extension NMSAlgorithm: ExpressibleByArgument {}

/// `--crop`: how the image is fitted into the model's square input.
enum CropChoice: String, ExpressibleByArgument, CaseIterable {
    case letterbox
    case center

    var preprocessing: FaceDetector.Preprocessing { self == .letterbox ? .letterbox : .centerCrop }
}
