import BlazeFace
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

extension DecodedImage {
    var pixelFormat: PixelFormat {
        switch format {
        case .gray8: return .gray8
        case .rgb8: return .rgb8
        case .rgba8: return .rgba8
        }
    }

    var orientation: ImageOrientation { ImageOrientation(exif: exifOrientation) ?? .up }

    /// Calls `body` with a zero-copy view of the pixels, with the file's EXIF orientation.
    func withView<R>(_ body: (ImageView) throws -> R) throws -> R {
        try ImageView.withPixels(pixels, width: width, height: height, bytesPerRow: bytesPerRow,
                                 pixelFormat: pixelFormat, orientation: orientation, body)
    }

    /// The upright image as RGB (orientation applied), for drawing on.
    func uprightRGB() -> DecodedImage {
        let o = orientation
        let uw = o.swapsDimensions ? height : width, uh = o.swapsDimensions ? width : height
        let bpp = format.bytesPerPixel
        var out = [UInt8](repeating: 0, count: uw * uh * 3)
        for v in 0..<uh {
            for u in 0..<uw {
                let (x, y) = o.storedPixel(u: u, v: v, width: width, height: height)
                let p = (y * width + x) * bpp
                let q = (v * uw + u) * 3
                if format == .gray8 {
                    out[q] = pixels[p]; out[q + 1] = pixels[p]; out[q + 2] = pixels[p]
                } else {
                    out[q] = pixels[p]; out[q + 1] = pixels[p + 1]; out[q + 2] = pixels[p + 2]
                }
            }
        }
        return DecodedImage(width: uw, height: uh, format: .rgb8, pixels: out)
    }
}
