import ArgumentParser
import BlazeImageIO

/// The program: the allocator keeps large picture buffers between pictures (`PictureMemory`: a 12 MP decode
/// then costs about 40 % less CPU than with a fresh mapping per picture), then the command line runs.
@main
enum Main {
    static func main() async {
        PictureMemory.keepLargeBlocks()
        await BlazefaceCommand.main()
    }
}

/// The `blazeface` command-line tool: inspects `.tflite` models and runs them on this package's engine.
struct BlazefaceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blazeface",
        abstract: "Inspect and run BlazeFace / MediaPipe face models with a pure-Swift TFLite engine.",
        discussion: """
            Models are read directly from their .tflite files; no TensorFlow or LiteRT library is used.
            `detect` finds faces, `landmarks` computes MediaPipe's face mesh on each, `analyze` \
            its head pose, open eyes, smile and capture quality, `track` follows faces through a video \
            with stable IDs, `segment` masks people \
            and replaces the background, `serve` offers them over HTTP. Tensors are exchanged as NumPy .npy files (float32, C order). `crop` \
            shows what a model's input sees of a (rotated) region of an image.
            """,
        version: "0.1.0",
        subcommands: subcommands
    )

    /// The subcommands; `serve` with the package's Server trait, else a `serve` that says how to build it.
    static var subcommands: [any ParsableCommand.Type] {
        var commands: [any ParsableCommand.Type] = [DetectCommand.self, LandmarksCommand.self, AnalyzeCommand.self,
                                                    TrackCommand.self, SegmentCommand.self]
        #if Server
        commands.append(ServeCommand.self)
        #else
        commands.append(ServeUnavailableCommand.self)
        #endif
        return commands + [CropCommand.self, InspectCommand.self, InferCommand.self]
    }
}
