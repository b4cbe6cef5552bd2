import ArgumentParser

/// The `blazeface` command-line tool: inspects `.tflite` models and runs them on this package's engine.
@main
struct BlazefaceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blazeface",
        abstract: "Inspect and run BlazeFace / MediaPipe face models with a pure-Swift TFLite engine.",
        discussion: """
            Models are read directly from their .tflite files; no TensorFlow or LiteRT library is used.
            `detect` finds faces, `landmarks` computes MediaPipe's face mesh on each, `analyze` \
            its head pose, open eyes, smile and capture quality, `track` follows faces through a video \
            with stable IDs, `segment` masks people \
            and replaces the background. Tensors are exchanged as NumPy .npy files (float32, C order). `crop` \
            shows what a model's input sees of a (rotated) region of an image.
            """,
        version: "0.1.0",
        subcommands: [DetectCommand.self, LandmarksCommand.self, AnalyzeCommand.self, TrackCommand.self, SegmentCommand.self,
                      CropCommand.self, InspectCommand.self, InferCommand.self]
    )
}
