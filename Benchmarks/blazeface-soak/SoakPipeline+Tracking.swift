import BlazeTracking

extension SoakPipeline {
    /// The face tracker's stage: one `FaceTracker` (attention mesh, full-range detector, up to 2 faces,
    /// smoothing, landmarks, head pose, eyes and smile, gestures) fed every frame at 30 frames per second of
    /// stream time into one reused result. The pictures change from frame to frame, so tracks start, end
    /// (a picture of another size ends them all) and IDs keep growing: the soak shows that none of it
    /// accumulates.
    @Sendable static func trackingStage(modelsDirectory: String?, threads: Int) throws -> SoakStage {
        let options = FaceTracker.Options(maximumFaces: 2, attributes: [.landmarks, .gestures, .expression],
                                          threadCount: threads)
        let tracker = try FaceTracker(options: options, modelsDirectory: modelsDirectory)
        var result = FaceTrackingResult()
        var frame = 0
        return SoakStage(name: "track") { view in
            try tracker.process(view, timestamp: Double(frame) / 30, into: &result)
            frame += 1
            return result.faces.count
        }
    }
}
