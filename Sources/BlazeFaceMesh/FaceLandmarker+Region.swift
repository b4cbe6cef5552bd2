import BlazeFace
import BlazeRegions

extension Landmark: PlanarPoint {}

/// The face graphs' regions of interest, from MediaPipe's region maths in BlazeRegions.
extension FaceLandmarker {
    /// The mesh's region for a detected face (`face_detection_front_detection_to_roi.pbtxt`): the box turned so
    /// that the line from the subject's right eye (keypoint 0) to the left eye is level, squared, scaled by 1.5.
    static func detectionRegion(for face: Face, imageWidth: Int, imageHeight: Int) -> NormalizedRegion {
        RegionRecipe.face.region(box: face.boundingBox, rotationFrom: face.keypoints.rightEye,
                                 to: face.keypoints.leftEye, imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// The mesh's region for the next frame from a face's points (`face_landmark_landmarks_to_roi.pbtxt`): the
    /// points' box turned so that the line from point 33 to point 263 (the outer eye corners) is level, squared,
    /// scaled by 1.5. Nil for fewer than 264 points.
    static func trackingRegion(for points: [Landmark], imageWidth: Int, imageHeight: Int) -> NormalizedRegion? {
        RegionRecipe.face.region(points: points, rotationFrom: 33, to: 263, imageWidth: imageWidth,
                                 imageHeight: imageHeight)
    }

    /// MediaPipe's association of the video mode's regions (see `RegionAssociation`): detections first, the
    /// previous frame's faces after them, so a followed face replaces its own fresh detection.
    static func associate(_ regions: inout [(region: NormalizedRegion, detection: Face?)]) {
        RegionAssociation.associate(&regions) { $0.region }
    }
}
