import BlazeFace
import Foundation

/// A model named on the command line: one of the six bundled names, or the path of a .tflite file.
struct ModelChoice: Hashable {
    /// The short name (`short-range` ...) or the file name without extension for a path.
    var name: String
    /// The resolved path of the .tflite file.
    var path: String
    /// The FaceDetector model when this is one of the four BlazeFace detectors.
    var detector: FaceDetector.Model?

    /// The bundled models, in the default order.
    static let names: [(name: String, file: String, detector: FaceDetector.Model?)] = [
        ("short-range", "face_detection_short_range.tflite", .shortRange),
        ("full-range", "face_detection_full_range.tflite", .fullRange),
        ("full-range-sparse", "face_detection_full_range_sparse.tflite", .fullRangeSparse),
        ("back", "face_detection_back.tflite", .backCamera),
        ("face-mesh", "face_landmark.tflite", nil),
        ("iris", "iris_landmark.tflite", nil),
    ]

    /// The folders searched for bundled models: `--models-dir`, else `$BLAZEFACE_MODELS`, else `./Models`.
    static func modelFolders(_ modelsDir: String?) -> [String] {
        if let modelsDir { return [modelsDir] }
        var folders: [String] = []
        if let env = ProcessInfo.processInfo.environment["BLAZEFACE_MODELS"], !env.isEmpty { folders.append(env) }
        folders.append(FileManager.default.currentDirectoryPath + "/Models")
        return folders
    }

    /// Resolves `argument` (a bundled name or a .tflite path).
    static func resolve(_ argument: String, modelsDir: String?) throws -> ModelChoice {
        if let known = names.first(where: { $0.name == argument }) {
            let folders = modelFolders(modelsDir)
            let candidates = folders.map { ($0 as NSString).appendingPathComponent(known.file) }
            guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                throw BenchFailure("\(known.file) not found in \(folders.joined(separator: ", ")); run Models/fetch.sh or pass --models-dir")
            }
            return ModelChoice(name: known.name, path: path, detector: known.detector)
        }
        guard argument.hasSuffix(".tflite") || argument.contains("/") else {
            throw BenchFailure("unknown model '\(argument)': use \(names.map(\.name).joined(separator: ", ")) or a .tflite path")
        }
        guard FileManager.default.fileExists(atPath: argument) else { throw BenchFailure("\(argument): no such file") }
        // A path to one of the bundled detector files keeps its detector configuration.
        let file = (argument as NSString).lastPathComponent
        // face_detection_front.tflite is a byte-identical copy of the short-range model (its older name).
        let known = names.first { $0.file == (file == "face_detection_front.tflite" ? names[0].file : file) }
        return ModelChoice(name: known?.name ?? (file as NSString).deletingPathExtension, path: argument,
                           detector: known?.detector)
    }
}

/// A failure reported as one line on stderr, exit status 1.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
