import BlazeFaceAnalysis
import BlazeFaceMesh

/// Smoothing, head pose, eyes and smile, the attribute hook and gestures of a face found on this frame.
extension FaceTracker {
    /// The reported box and points of track `index` from its raw mesh: One-Euro smoothed when smoothing is on,
    /// the face size (the mean of the raw box's sides) scaling the speed as in MediaPipe.
    func smooth(at index: Int, time: Double) {
        let box = tracks[index].raw.boundingBox
        let wantsPoints = options.attributes.contains(.landmarks)
        guard var smoother = tracks[index].smoother else {
            tracks[index].box = box
            if wantsPoints {
                tracks[index].points.removeAll(keepingCapacity: true)
                tracks[index].points.append(contentsOf: tracks[index].raw.points)
            }
            return
        }
        tracks[index].smoother = nil   // keeps the smoother's storage unshared while it is mutated
        let scale = tracks[index].size
        tracks[index].box = smoother.smooth(box: box, time: time, scale: scale)
        if wantsPoints {
            smoother.smooth(points: tracks[index].raw.points, time: time, scale: scale, into: &tracks[index].points)
        }
        tracks[index].smoother = smoother
    }

    /// Head pose (from the reported points, else the raw ones), eyes and smile (from the raw points), the hook's
    /// values, and gesture events.
    func computeAttributes(_ frame: ImageView, at index: Int, time: Double, _ result: inout FaceTrackingResult) {
        let wanted = options.attributes
        let wantsPose = wanted.contains(.headPose) || wanted.contains(.gestures)
        let wantsExpression = wanted.contains(.expression)
        guard wantsPose || wantsExpression || attributeHook != nil else { return }
        var attributes = FaceAttributes()
        if wantsPose {
            let points = tracks[index].points.isEmpty ? tracks[index].raw.points : tracks[index].points
            attributes.headPose = try? HeadPoseEstimator.estimate(points, imageWidth: frame.uprightWidth,
                                                                 imageHeight: frame.uprightHeight)
        }
        if wantsExpression, let expression = try? ExpressionEstimator.estimate(
            tracks[index].raw.points, imageWidth: frame.uprightWidth, imageHeight: frame.uprightHeight) {
            attributes.leftEyeOpen = expression.leftEyeOpen
            attributes.rightEyeOpen = expression.rightEyeOpen
            attributes.smiling = expression.smiling
        }
        attributeHook?(frame, tracks[index].raw, &attributes)
        tracks[index].attributes = attributes
        guard wanted.contains(.gestures) else { return }
        let pose = attributes.headPose
        let sample = GestureSample(time: time, leftEyeOpen: attributes.leftEyeOpen,
                                   rightEyeOpen: attributes.rightEyeOpen, pitch: pose?.pitch, yaw: pose?.yaw,
                                   roll: pose?.roll)
        for gesture in tracks[index].gestures.update(sample) {
            result.events.append(.gesture(id: tracks[index].id, gesture))
        }
    }

    /// The next ID (never reused by this tracker).
    func nextTrackID() -> Int {
        defer { nextID += 1 }
        return nextID
    }
}
