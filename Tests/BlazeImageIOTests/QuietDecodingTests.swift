import BlazeImageIO
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The codec libraries print nothing: their errors reach the caller as `ImageIOError`s. dav1d's default logger
/// printed every AV1 parsing error to stderr (fuzz-image printed thousands of lines such as "Frame size 2048x2048
/// exceeds limit"), and libde265 its SPS errors; FFmpeg (which now decodes HEVC in HEIC), libtiff, giflib and libwebp
/// are silenced or silent.
@Suite("Decoding prints nothing", .serialized)
struct QuietDecodingTests {
    /// What the process writes to stderr while `body` runs (fd 2 sent to a file meanwhile). Other tests running in
    /// parallel may write too (the test runner's own lines), so callers look for their libraries' messages only.
    static func standardError(during body: () -> Void) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("blaze-stderr-\(UUID().uuidString)")
        let file = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(file >= 0)
        let saved = dup(2)
        fflush(nil)
        dup2(file, 2)
        body()
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        close(file)
        defer { try? FileManager.default.removeItem(at: url) }
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    @Test func damagedFilesDecodeSilently() throws {
        // The HEIC files first: in a process of its own, their HEVC plugin is FFmpeg's first user, which silences it.
        let files = ["heif_corrupt.heic", "heif_sps_bomb.heic", "heif_truncated.heic", "avif_frame_bomb.avif", "fuzz_avif_empty_item.avif", "webp_corrupt.webp", "tiff_corrupt.tif",
                     "tiff_truncated.tif", "gif_corrupt.gif", "bmp_corrupt.bmp", "pnm_corrupt.ppm", "pnm_giant.pgm"]
        let inputs = try files.map(Fixtures.bytes)
        var errors = 0
        let printed = try Self.standardError {
            for data in inputs where decodingError({ () throws(ImageIOError) in try ImageDecoder.decode(data: data) }) != nil {
                errors += 1
            }
        }
        #expect(errors == files.count)
        // The test runner's own lines (other tests starting and ending meanwhile) can name these libraries too,
        // in their arguments ("dav1d", "HEVC ..."): only the other lines count.
        let runnerMarks = ["◇", "✔", "✘", "↳", "􀟈", "􀢄", "Test Suite", "Test Case"]
        let libraryLines = printed.split(separator: "\n")
            .filter { line in !runnerMarks.contains { line.hasPrefix($0) } }
            .joined(separator: "\n")
        for fragment in ["exceeds limit", "OBU", "dav1d", "TIFF", "Picture size", "Invalid maxval", "GIF", "[hevc @",
                         "SPS", "PPS", "NAL"] {
            #expect(!libraryLines.contains(fragment), "stderr got: \(libraryLines)")
        }
    }
}
