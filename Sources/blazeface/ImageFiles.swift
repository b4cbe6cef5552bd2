import BlazeImageIO
import Foundation

/// Expands the command line's files and folders into image paths: folders are walked recursively for regular
/// files with the extensions of the formats BlazeImageIO reads (`ImageFileFormat.allFileExtensions`; any case;
/// sorted; a FIFO or device with such a name is skipped); files are taken as given, whatever their extension (the decoder recognises the format by
/// content, and refuses what is not a regular file).
func collectImagePaths(_ arguments: [String]) throws -> [String] {
    var paths: [String] = []
    let extensions = ImageFileFormat.allFileExtensions
    for argument in arguments {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
            paths.append(argument)  // reported as an error for this image
            continue
        }
        guard isDirectory.boolValue else {
            paths.append(argument)
            continue
        }
        guard let walker = FileManager.default.enumerator(atPath: argument) else {
            throw CommandFailure("cannot read folder \(argument)")
        }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            guard extensions.contains((relative as NSString).pathExtension.lowercased()) else { continue }
            let path = (argument as NSString).appendingPathComponent(relative)
            var info = stat()  // follows links: a link to a regular file counts, one to /dev/zero does not
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { found.append(path) }
        }
        paths += found.sorted()
    }
    return paths
}
