import BlazeTracking
import BlazeVideoIO

/// `blazeface track --annotate`: every frame drawn upright (the stream's rotation applied) with each face's
/// box and ID, and its mesh when the points are there, written with `VideoWriter` at the input's frame times.
final class TrackAnnotation {
    let writer: VideoWriter
    let mesh: Bool
    /// The written size: the upright frame's, made even (the encoders need it) by dropping a last column or row.
    let width: Int
    let height: Int

    /// Opens `path` for frames of `info`'s upright size at its frame rate (90 kHz ticks keep irregular times).
    /// - Throws: `VideoIOError` from the writer (`.unsupportedContainer` for an unknown extension ...).
    init(path: String, info: VideoInfo, mesh: Bool) throws {
        width = info.uprightWidth & ~1
        height = info.uprightHeight & ~1
        let rate = info.frameRate ?? 30
        let frameRate = FrameRate(numerator: max(1, Int((rate * 1000).rounded())), denominator: 1000)
        do {
            writer = try VideoWriter(path: path, width: width, height: height,
                                     options: VideoWriterOptions(frameRate: frameRate, ticksPerSecond: 90_000))
        } catch {
            throw CommandFailure(about(path, error.description))
        }
        self.mesh = mesh
    }

    /// Draws `faces` on the upright copy of `frame` and appends it at `time` seconds from the first frame.
    func append(_ frame: ImageBuffer, faces: [TrackedFace], time: Double) throws {
        // An upright RGB frame (most videos) is drawn on as it is (one copy), not re-sampled.
        let upright = frame.orientation == .up && frame.pixelFormat == .rgb8
        var annotator = try Annotator(image: upright ? frame : frame.uprightRGB())
        for face in faces { annotator.draw(face, mesh: mesh) }
        let image = annotator.image
        do {
            try ImageView.withPixels(image.pixels, width: width, height: height, bytesPerRow: image.bytesPerRow,
                                     pixelFormat: .rgb8) { view in try writer.append(view, time: time) }
        } catch let error as VideoIOError {
            throw CommandFailure(about(writer.path, error.description))
        }
    }

    /// Finalizes the file (also after a failure: the frames written so far stay playable).
    func finish() throws {
        do { try writer.finish() } catch { throw CommandFailure(about(writer.path, error.description)) }
    }
}

extension Annotator {
    /// A colour per ID, so that a face keeps its colour through the video.
    static let trackColors: [(UInt8, UInt8, UInt8)] = [
        (40, 230, 60), (255, 180, 40), (60, 170, 255), (255, 80, 200), (240, 240, 60), (80, 240, 230),
    ]

    /// A tracked face: its box and "ID n" above it in the ID's colour, and its mesh when `mesh` and the points
    /// are there.
    mutating func draw(_ face: TrackedFace, mesh: Bool) {
        let color = Self.trackColors[max(face.id - 1, 0) % Self.trackColors.count]
        if mesh, !face.landmarks.isEmpty { drawMesh(face.landmarks) }
        drawBox(face.box, label: "ID \(face.id)", color: color)
    }
}
