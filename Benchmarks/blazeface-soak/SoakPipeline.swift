import BlazeFace
import BlazeFaceMesh
import BlazeImaging
import BlazeSegmentation

/// One thing the soak does to every frame: its name, and a call that runs it and returns how many things it
/// found (faces, meshes, person pixels), so that the summary shows each stage did real work.
///
/// The stages of `SoakPipeline.standard` are detect, landmarks and segment, the face tracker's (track,
/// through `SoakPipeline.extraStages`), the video reader's (video, `videoStage`) and a decoded video tracked
/// as one stream (stream, `streamStage`).
struct SoakStage {
    var name: String
    var run: (ImageView) throws -> Int
}

/// The pipelines a long-running app would hold: one of each object, made once, fed every frame, reusing the
/// `into:` storage as an app's frame loop does.
final class SoakPipeline {
    let stages: [SoakStage]

    /// Stages added after the standard ones (the face tracker's: `trackingStage`): each gets the models folder
    /// and the thread count.
    static let extraStages: [@Sendable (_ modelsDirectory: String?, _ threads: Int) throws -> SoakStage] = [
        trackingStage(modelsDirectory:threads:),
    ]

    private init(stages: [SoakStage]) { self.stages = stages }

    /// - detect: `FaceDetector(model: .shortRange).detect(_:into:)`;
    /// - landmarks: `FaceLandmarker(model: .attention, options: .mediaPipe(maximumFaces: 2))` in video mode,
    ///   `detect(_:tracking:)` fed its own previous result (the frames change picture, so the tracked faces are
    ///   lost and found again, both paths);
    /// - segment: `PersonSegmenter(model: .automatic, smoothing 0.5).segment(_:into:)` at the frame's size, then
    ///   `BackgroundReplacer` with a blurred background into one reused buffer;
    /// - then the extra stages, the video reader's on a video made from `videoPicture` (`videoStage`), and the
    ///   stream's: that picture's clip decoded and tracked as one endless video (`streamStage`).
    static func standard(modelsDirectory: String?, threads: Int, videoPicture: ImageBuffer) throws -> SoakPipeline {
        let detector = try FaceDetector(model: .shortRange, modelsDirectory: modelsDirectory,
                                        options: .init(threadCount: threads))
        var faces: [Face] = []
        var landmarkOptions = FaceLandmarker.Options.mediaPipe(maximumFaces: 2)
        landmarkOptions.threadCount = threads
        let landmarker = try FaceLandmarker(model: .attention, modelsDirectory: modelsDirectory, options: landmarkOptions)
        var tracked: [FaceLandmarks] = []
        let segmenter = try PersonSegmenter(model: .automatic, modelsDirectory: modelsDirectory,
                                            options: .init(smoothing: 0.5, threadCount: threads))
        let replacer = BackgroundReplacer()
        var mask = SegmentationMask()
        var composed = ImageBuffer(width: 0, height: 0)
        var stages = [
            SoakStage(name: "detect") { view in
                try detector.detect(view, into: &faces)
                return faces.count
            },
            SoakStage(name: "landmarks") { view in
                try landmarker.detect(view, tracking: &tracked)
                return tracked.count
            },
            SoakStage(name: "segment") { view in
                try segmenter.segment(view, into: &mask)
                try replacer.replaceBackground(of: view, mask: mask, with: .blur(radius: 8), into: &composed)
                var person = 0
                for value in mask.values where value > 0.5 { person += 1 }
                return person
            },
        ]
        for make in extraStages { stages.append(try make(modelsDirectory, threads)) }
        stages.append(try videoStage(picture: videoPicture))
        stages.append(try streamStage(picture: videoPicture, modelsDirectory: modelsDirectory, threads: threads))
        return SoakPipeline(stages: stages)
    }
}
