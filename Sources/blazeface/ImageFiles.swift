import BlazeImageIO
import Foundation

/// Expands the command line's files and folders into image paths: folders are walked recursively for
/// `.jpg`, `.jpeg` and `.png` files (sorted); files are taken as given, whatever their extension.
func collectImagePaths(_ arguments: [String]) throws -> [String] {
    var paths: [String] = []
    let extensions: Set<String> = ["jpg", "jpeg", "png"]
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
            if extensions.contains((relative as NSString).pathExtension.lowercased()) {
                found.append((argument as NSString).appendingPathComponent(relative))
            }
        }
        paths += found.sorted()
    }
    return paths
}
