import Foundation

/// Finds model files on disk.
///
/// Lookup order for a model file:
/// 1. an explicit location, when the caller gives one: a folder that holds the file, or the file's own
///    path. It is then the only place looked at (a folder you name is the folder you mean);
/// 2. otherwise the folder named by the `BLAZEFACE_MODELS` environment variable (if set and not empty),
/// 3. then a `Models` folder beside the running executable,
/// 4. then `Models` in the current directory.
///
/// An app ships its models as bundle resources and passes their path or folder (see
/// Documentation/Models.md); servers and the command-line tool use `BLAZEFACE_MODELS` or a `Models` folder.
/// The locator only checks that the file exists; it does not read it.
///
/// The environment, the executable's folder and the current directory are injectable for tests; the
/// default values are the process's.
public struct ModelLocator: Hashable, Sendable {
    /// The environment variable naming a folder of models.
    public static let environmentVariable = "BLAZEFACE_MODELS"
    /// The folder name looked for beside the executable and in the current directory.
    public static let folderName = "Models"

    /// The environment read for `BLAZEFACE_MODELS`.
    public var environment: [String: String]
    /// The folder of the running executable; nil skips that step.
    public var executableDirectory: String?
    /// The current directory, in which a `Models` folder is looked for last.
    public var currentDirectory: String

    /// A locator; each parameter sets the property of the same name (the defaults are the process's).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                executableDirectory: String? = ModelLocator.processExecutableDirectory,
                currentDirectory: String = FileManager.default.currentDirectoryPath) {
        self.environment = environment
        self.executableDirectory = executableDirectory
        self.currentDirectory = currentDirectory
    }

    /// The folder holding the running executable (`Bundle.main.executableURL`'s folder), if known.
    public static var processExecutableDirectory: String? {
        Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// The folders searched when no explicit location is given, in order, without duplicates.
    public var searchFolders: [String] {
        var folders: [String] = []
        if let folder = environment[Self.environmentVariable], !folder.isEmpty { folders.append(folder) }
        if let executableDirectory { folders.append(Self.join(executableDirectory, Self.folderName)) }
        folders.append(Self.join(currentDirectory, Self.folderName))
        var seen = Set<String>()
        return folders.filter { seen.insert(($0 as NSString).standardizingPath).inserted }
    }

    /// The path of the catalog model `name`.
    /// - Parameters:
    ///   - name: the catalog model, whose `fileName` is looked for.
    ///   - location: a folder holding the model file, or the file's own path; nil searches `searchFolders`.
    /// - Returns: the path of an existing file (not read).
    /// - Throws: `ModelLocatorError.notFound`, listing the folders tried.
    public func locate(_ name: ModelName, in location: String? = nil) throws(ModelLocatorError) -> String {
        try locate(file: name.fileName, in: location)
    }

    /// The path of the model file `fileName` (a bare file name such as `face_landmark.tflite`).
    /// - Parameters:
    ///   - fileName: the bare file name looked for in each folder.
    ///   - location: a folder holding the file, or a file path to use as it is; nil searches `searchFolders`.
    /// - Returns: the path of an existing file (not read).
    /// - Throws: `ModelLocatorError.notFound`, listing the folders tried.
    public func locate(file fileName: String, in location: String? = nil) throws(ModelLocatorError) -> String {
        if let location {
            switch Self.kind(of: location) {
            case .directory:
                let path = Self.join(location, fileName)
                guard Self.kind(of: path) == .file else { throw .notFound(file: fileName, searched: [location]) }
                return path
            case .file:
                return location
            case .missing where location.hasSuffix(".tflite"):
                throw .notFound(file: (location as NSString).lastPathComponent,
                                searched: [(location as NSString).deletingLastPathComponent])
            case .missing:
                throw .notFound(file: fileName, searched: [location])
            }
        }
        let folders = searchFolders
        for folder in folders {
            let path = Self.join(folder, fileName)
            if Self.kind(of: path) == .file { return path }
        }
        throw .notFound(file: fileName, searched: folders)
    }

    private enum Kind { case file, directory, missing }

    private static func kind(of path: String) -> Kind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        return isDirectory.boolValue ? .directory : .file
    }

    private static func join(_ folder: String, _ name: String) -> String {
        (folder as NSString).appendingPathComponent(name)
    }
}
