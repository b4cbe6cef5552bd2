// Index maps of MediaPipe's two ways to 478 face landmarks (Apache License 2.0, see NOTICE):
// - the face mesh with attention: mediapipe/modules/face_landmark/tensors_to_face_landmarks_with_attention.pbtxt
//   (LandmarksRefinementCalculatorOptions);
// - the older face mesh + iris model pipeline: mediapipe/graphs/iris_tracking/iris_tracking_cpu.pbtxt,
//   mediapipe/modules/iris_landmark/iris_landmark_left_and_right_cpu.pbtxt, iris_landmark_cpu.pbtxt,
//   iris_landmark_landmarks_to_roi.pbtxt and
//   mediapipe/graphs/iris_tracking/calculators/update_face_landmarks_calculator.cc.

/// Where the refined models' outputs go in the 478-point landmark list.
///
/// **Left and right.** Both MediaPipe pipelines name the eyes by the side of the image they are on in an
/// unmirrored photo, the opposite of `FaceMeshConnections` and `FaceRegion`, which use the subject's own
/// sides: the model's "left eye" (`leftEye`, `leftIris` 468...472) is around the corners 33 and 133, on the
/// image's left, which is the subject's *right* eye (`FaceRegion.rightEye`, `.rightIris`).
///
/// **With attention** (`ModelName.faceMeshAttention`): the model sees one 192x192 face crop and writes
/// the 468 mesh points (x, y, z) and five 2-D refinements. The 478 landmarks start as the mesh (`mesh`,
/// the identity map, z copied), then the lips (80 points), the left and right eye (71 each) replace x and y
/// of the mesh points their maps name and keep the mesh's z; the left and right iris (5 each) fill 468...472
/// and 473...477, and each iris point's z is the mean z, after the steps before, of the 16 points of its
/// eye's lid line (`leftIrisDepthSources`, `rightIrisDepthSources`). The maps are applied in that order.
/// The lips and eye maps share no index; the union of all six maps is 0..<478, as MediaPipe's
/// LandmarksRefinementCalculator requires (no gaps).
///
/// **Without attention: the face mesh + iris model pipeline** (`ModelName.iris`, MediaPipe's iris tracking
/// graphs), in short:
/// 1. Run the 468-point face mesh.
/// 2. For each eye take two corners, the one on the image's left first: `irisLeftEyeCorners` (33, 133) and
///    `irisRightEyeCorners` (362, 263).
/// 3. Eye region: the centre of the corners' axis-aligned bounding box; the rotation that makes the line
///    from the first corner to the second horizontal (angle 0 - atan2(-(y1 - y0), x1 - x0), in pixels);
///    a square whose side is the longer side of that unrotated bounding box in pixels (in practice the
///    corners' horizontal distance), times `irisRegionScale` (2.3).
/// 4. Cut that rotated square out of the image (rounded to whole pixels, border pixels replicated). The
///    model expects an eye as the image's left eye looks, so the right eye's crop (362/263, the subject's
///    left) is flipped horizontally. Resize to `irisInputSize` (64) x 64, keeping the aspect ratio (the
///    crop is square, so there is no padding beyond rounding), RGB values mapped to 0...1.
/// 5. The outputs are 71 eye-contour-and-brow points and 5 iris points (centre first, then four rim
///    points), each (x, y, z) in input pixels. Decoding divides x, y and z by 64; for the flipped eye x
///    becomes 64 - x first (z keeps its sign). The points are then taken back through the crop: rotated by
///    the region's rotation about its centre and scaled by its size; z is scaled like x (times the region's
///    width relative to the image's).
/// 6. The two eyes' contours (left eye's 71 then the right eye's 71) replace x, y, z (and visibility) of
///    the mesh points of `irisModelEyeContour`, in that order.
/// 7. The iris points are appended: the left eye's 5 as 468...472, the right eye's 5 as 473...477. Their
///    z is the iris model's own, relative to the eye crop, not derived from the mesh as with attention.
///    Derived from the graph, not measured: because of the flip, the rim points come in the same anatomical
///    order for both eyes in this pipeline (the same rim point is on the nose side of both eyes), while
///    MediaPipe's canonical face with irises (face_model_with_iris.obj) puts 469 and 474 both on the image's
///    right; code should not rely on rim-point order agreeing between the two pipelines.
enum RefinementIndices {
    /// The points of the face mesh proper.
    static let meshCount = 468
    /// The points of the refined mesh: the mesh and two irises of 5.
    static let refinedCount = 478

    // MARK: Face mesh with attention

    /// The mesh output's map: the identity on 0..<468.
    static let mesh: [Int] = Array(0..<meshCount)

    /// The mesh points that the lips output (80 points, in the output's order) replaces.
    static let lips: [Int] = [
        // Outer line, lower: corner (61) to corner (291).
        61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291,
        // Outer line, upper, without the corners.
        185, 40, 39, 37, 0, 267, 269, 270, 409,
        // Inner line, lower: corner (78) to corner (308).
        78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308,
        // Inner line, upper, without the corners.
        191, 80, 81, 82, 13, 312, 311, 310, 415,
        // A ring between the outer line and the skin around it: lower, then upper without the corners.
        76, 77, 90, 180, 85, 16, 315, 404, 320, 307, 306,
        184, 74, 73, 72, 11, 302, 303, 304, 408,
        // A ring between the outer and the inner line: lower, then upper without the corners.
        62, 96, 89, 179, 86, 15, 316, 403, 319, 325, 292,
        183, 42, 41, 38, 12, 268, 271, 272, 407,
    ]

    /// The mesh points that the model's "left eye" output (`output_left_eye`, 71 points, in the output's
    /// order) replaces: the eye with corners 33 and 133, on the image's left in an unmirrored photo, which
    /// is the subject's right eye. The first 16 are the lid line; then rings further out, the outermost
    /// ones running along the eyebrow.
    static let leftEye: [Int] = [
        // Lid line, lower: corner (33) to corner (133).
        33, 7, 163, 144, 145, 153, 154, 155, 133,
        // Lid line, upper, without the corners.
        246, 161, 160, 159, 158, 157, 173,
        // Second ring: lower, then upper without the corners.
        130, 25, 110, 24, 23, 22, 26, 112, 243,
        247, 30, 29, 27, 28, 56, 190,
        // Third ring: lower, then upper without the corners.
        226, 31, 228, 229, 230, 231, 232, 233, 244,
        113, 225, 224, 223, 222, 221, 189,
        // Fourth ring, upper only (the eyebrow's lower edge).
        35, 124, 46, 53, 52, 65,
        // Fifth ring: lower, then upper without the corners (the eyebrow's upper edge).
        143, 111, 117, 118, 119, 120, 121, 128, 245,
        156, 70, 63, 105, 66, 107, 55, 193,
    ]

    /// The mesh points that the model's "right eye" output (`output_right_eye`, 71 points) replaces: the
    /// eye with corners 263 and 362, on the image's right, the subject's left eye. Entry i is the mirror
    /// image of `leftEye[i]`.
    static let rightEye: [Int] = [
        // Lid line, lower: corner (263) to corner (362).
        263, 249, 390, 373, 374, 380, 381, 382, 362,
        // Lid line, upper, without the corners.
        466, 388, 387, 386, 385, 384, 398,
        // Second ring: lower, then upper without the corners.
        359, 255, 339, 254, 253, 252, 256, 341, 463,
        467, 260, 259, 257, 258, 286, 414,
        // Third ring: lower, then upper without the corners.
        446, 261, 448, 449, 450, 451, 452, 453, 464,
        342, 445, 444, 443, 442, 441, 413,
        // Fourth ring, upper only (the eyebrow's lower edge).
        265, 353, 276, 283, 282, 295,
        // Fifth ring: lower, then upper without the corners (the eyebrow's upper edge).
        372, 340, 346, 347, 348, 349, 350, 357, 465,
        383, 300, 293, 334, 296, 336, 285, 417,
    ]

    /// Where the model's "left iris" output goes (centre, then four rim points): the iris of the eye on the
    /// image's left, the subject's right iris.
    static let leftIris: [Int] = Array(468...472)

    /// Where the model's "right iris" output goes (centre, then four rim points): the iris of the eye on the
    /// image's right, the subject's left iris.
    static let rightIris: [Int] = Array(473...477)

    /// The points whose mean z becomes the z of all five `leftIris` points: the lid line of the image's
    /// left eye (the first 16 of `leftEye`).
    static let leftIrisDepthSources: [Int] = [
        33, 7, 163, 144, 145, 153, 154, 155, 133, 246, 161, 160, 159, 158, 157, 173,
    ]

    /// The points whose mean z becomes the z of all five `rightIris` points: the lid line of the image's
    /// right eye (the first 16 of `rightEye`).
    static let rightIrisDepthSources: [Int] = [
        263, 249, 390, 373, 374, 380, 381, 382, 362, 466, 388, 387, 386, 385, 384, 398,
    ]

    // MARK: Face mesh + iris model

    /// The corners that place the iris model's region for the eye on the image's left (the subject's right
    /// eye), the image's left one first: the outer corner 33, then the inner corner 133.
    static let irisLeftEyeCorners: [Int] = [33, 133]

    /// The corners that place the iris model's region for the eye on the image's right (the subject's left
    /// eye), the image's left one first: the inner corner 362, then the outer corner 263. This eye's crop is
    /// flipped horizontally.
    static let irisRightEyeCorners: [Int] = [362, 263]

    /// The iris model's region is a square this many times the longer side of its corners' bounding box.
    static let irisRegionScale: Double = 2.3

    /// The iris model's input is irisInputSize x irisInputSize RGB, values in 0...1.
    static let irisInputSize = 64

    /// The iris model's eye output: points of (x, y, z).
    static let irisEyeContourCount = 71

    /// The iris model's iris output: centre and four rim points of (x, y, z).
    static let irisPointCount = 5

    /// The mesh points that the iris model's eye-contour points overwrite (142: the image's left eye's 71,
    /// then the image's right eye's 71, each in the model's output order; UpdateFaceLandmarksCalculator's
    /// table). The same maps as the attention model's eyes, `leftEye + rightEye`.
    static let irisModelEyeContour: [Int] = [
        // The eye on the image's left.
        33, 7, 163, 144, 145, 153, 154, 155, 133, 246, 161, 160, 159, 158, 157, 173,
        130, 25, 110, 24, 23, 22, 26, 112, 243, 247, 30, 29, 27, 28, 56, 190,
        226, 31, 228, 229, 230, 231, 232, 233, 244, 113, 225, 224, 223, 222, 221, 189,
        35, 124, 46, 53, 52, 65, 143, 111, 117, 118, 119, 120, 121, 128, 245, 156,
        70, 63, 105, 66, 107, 55, 193,
        // The eye on the image's right.
        263, 249, 390, 373, 374, 380, 381, 382, 362, 466, 388, 387, 386, 385, 384, 398,
        359, 255, 339, 254, 253, 252, 256, 341, 463, 467, 260, 259, 257, 258, 286, 414,
        446, 261, 448, 449, 450, 451, 452, 453, 464, 342, 445, 444, 443, 442, 441, 413,
        265, 353, 276, 283, 282, 295, 372, 340, 346, 347, 348, 349, 350, 357, 465, 383,
        300, 293, 334, 296, 336, 285, 417,
    ]
}
