/// The connections MediaPipe draws between face-mesh landmarks: the tessellation of the 468-point mesh, the
/// contours of the lips, eyes, eyebrows and face oval, the nose, and the two irises of the refined mesh.
///
/// The index lists are MediaPipe's (mediapipe/python/solutions/face_mesh_connections.py, the same lists as
/// mediapipe/tasks/cc/vision/face_landmarker/face_landmarks_connections.h; Apache License 2.0, see NOTICE).
/// MediaPipe keeps them as sets; here each list is sorted by `start`, then `end`, so its order is stable.
///
/// Sides are the subject's own: "left" is the subject's left, which is on the image's right in an
/// unmirrored photo (MediaPipe's left eye is the one with corners 263 and 362, its left iris is 473...477).
/// MediaPipe's attention and iris models name their outputs the other way round (by the image's side).
///
/// Every list is built on first use and then shared.
public enum FaceMeshConnections {
    /// All edges of the mesh's 852 triangles, each triangle as its three directed edges: 2556 connections
    /// over the 468 mesh points (1322 distinct undirected edges; an edge shared by two triangles appears once
    /// in each direction).
    public static let tessellation: [LandmarkConnection] = connections(fromTriangles: tessellationTriangles)

    /// The lips, both eyes, both eyebrows and the face oval together (124 connections); like MediaPipe's
    /// FACEMESH_CONTOURS, without the nose and the irises.
    public static let contours: [LandmarkConnection] = union(lips, leftEye, leftEyebrow, rightEye, rightEyebrow,
                                                             faceOval)

    /// The outer and the inner lip line: two cycles of 20 points (40 connections).
    public static let lips: [LandmarkConnection] = connections(lipsPairs)

    /// The subject's left eye (on the image's right in an unmirrored photo): one cycle of 16 points through
    /// the corners 263 (outer) and 362 (inner).
    public static let leftEye: [LandmarkConnection] = connections(leftEyePairs)

    /// The subject's left eyebrow (on the image's right in an unmirrored photo): two paths of 5 points.
    public static let leftEyebrow: [LandmarkConnection] = connections(leftEyebrowPairs)

    /// The subject's right eye (on the image's left in an unmirrored photo): one cycle of 16 points through
    /// the corners 33 (outer) and 133 (inner).
    public static let rightEye: [LandmarkConnection] = connections(rightEyePairs)

    /// The subject's right eyebrow (on the image's left in an unmirrored photo): two paths of 5 points.
    public static let rightEyebrow: [LandmarkConnection] = connections(rightEyebrowPairs)

    /// The outline of the face: one cycle of 36 points.
    public static let faceOval: [LandmarkConnection] = connections(faceOvalPairs)

    /// The nose: the bridge from 168 down to the tip and on to 2 under the nose, and a loop around the
    /// nostrils and the tip (25 connections over 24 points).
    public static let nose: [LandmarkConnection] = connections(nosePairs)

    /// The subject's left iris (on the image's right in an unmirrored photo): the cycle of its four rim
    /// points 474...477. Needs the refined (478-point) landmarks.
    public static let leftIris: [LandmarkConnection] = connections(leftIrisPairs)

    /// The subject's right iris (on the image's left in an unmirrored photo): the cycle of its four rim
    /// points 469...472. Needs the refined (478-point) landmarks.
    public static let rightIris: [LandmarkConnection] = connections(rightIrisPairs)

    /// Both irises (8 connections). Needs the refined (478-point) landmarks.
    public static let irises: [LandmarkConnection] = union(leftIris, rightIris)
}

// MARK: - Building the lists

extension FaceMeshConnections {
    /// Connections from a flat list of (start, end) pairs, sorted by `start` then `end`, duplicates removed.
    static func connections(_ pairs: [UInt16]) -> [LandmarkConnection] {
        precondition(pairs.count.isMultiple(of: 2), "an odd number of pair entries")
        let list = stride(from: 0, to: pairs.count, by: 2).map {
            LandmarkConnection(start: Int(pairs[$0]), end: Int(pairs[$0 + 1]))
        }
        return sortedUnique(list)
    }

    /// The three directed edges (a, b), (b, c), (c, a) of each triangle (a, b, c) of a flat list, sorted by
    /// `start` then `end`, duplicates removed.
    static func connections(fromTriangles triangles: [UInt16]) -> [LandmarkConnection] {
        precondition(triangles.count.isMultiple(of: 3), "a triangle list whose count is not a multiple of 3")
        var list = [LandmarkConnection]()
        list.reserveCapacity(triangles.count)
        for first in stride(from: 0, to: triangles.count, by: 3) {
            let a = Int(triangles[first]), b = Int(triangles[first + 1]), c = Int(triangles[first + 2])
            list.append(LandmarkConnection(start: a, end: b))
            list.append(LandmarkConnection(start: b, end: c))
            list.append(LandmarkConnection(start: c, end: a))
        }
        return sortedUnique(list)
    }

    /// The union of several lists, sorted by `start` then `end`.
    static func union(_ lists: [LandmarkConnection]...) -> [LandmarkConnection] {
        sortedUnique(lists.flatMap { $0 })
    }

    static func sortedUnique(_ list: [LandmarkConnection]) -> [LandmarkConnection] {
        var seen = Set<LandmarkConnection>()
        return list.filter { seen.insert($0).inserted }
            .sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    }
}

// MARK: - MediaPipe's lists

// From mediapipe/python/solutions/face_mesh_connections.py, in the order the file writes them (pairs of
// start, end).
extension FaceMeshConnections {
    /// FACEMESH_LIPS: the outer and the inner lip line.
    static let lipsPairs: [UInt16] = [
        61, 146,  146, 91,  91, 181,  181, 84,  84, 17,  17, 314,  314, 405,  405, 321,
        321, 375,  375, 291,  61, 185,  185, 40,  40, 39,  39, 37,  37, 0,  0, 267,
        267, 269,  269, 270,  270, 409,  409, 291,  78, 95,  95, 88,  88, 178,  178, 87,
        87, 14,  14, 317,  317, 402,  402, 318,  318, 324,  324, 308,  78, 191,  191, 80,
        80, 81,  81, 82,  82, 13,  13, 312,  312, 311,  311, 310,  310, 415,  415, 308,
    ]

    /// FACEMESH_LEFT_EYE: the subject's left eye (corners 263 and 362).
    static let leftEyePairs: [UInt16] = [
        263, 249,  249, 390,  390, 373,  373, 374,  374, 380,  380, 381,  381, 382,  382, 362,
        263, 466,  466, 388,  388, 387,  387, 386,  386, 385,  385, 384,  384, 398,  398, 362,
    ]

    /// FACEMESH_LEFT_EYEBROW.
    static let leftEyebrowPairs: [UInt16] = [
        276, 283,  283, 282,  282, 295,  295, 285,  300, 293,  293, 334,  334, 296,  296, 336,
    ]

    /// FACEMESH_LEFT_IRIS: the subject's left iris (473 centre, 474...477 rim).
    static let leftIrisPairs: [UInt16] = [
        474, 475,  475, 476,  476, 477,  477, 474,
    ]

    /// FACEMESH_RIGHT_EYE: the subject's right eye (corners 33 and 133).
    static let rightEyePairs: [UInt16] = [
        33, 7,  7, 163,  163, 144,  144, 145,  145, 153,  153, 154,  154, 155,  155, 133,
        33, 246,  246, 161,  161, 160,  160, 159,  159, 158,  158, 157,  157, 173,  173, 133,
    ]

    /// FACEMESH_RIGHT_EYEBROW.
    static let rightEyebrowPairs: [UInt16] = [
        46, 53,  53, 52,  52, 65,  65, 55,  70, 63,  63, 105,  105, 66,  66, 107,
    ]

    /// FACEMESH_RIGHT_IRIS: the subject's right iris (468 centre, 469...472 rim).
    static let rightIrisPairs: [UInt16] = [
        469, 470,  470, 471,  471, 472,  472, 469,
    ]

    /// FACEMESH_FACE_OVAL.
    static let faceOvalPairs: [UInt16] = [
        10, 338,  338, 297,  297, 332,  332, 284,  284, 251,  251, 389,  389, 356,  356, 454,
        454, 323,  323, 361,  361, 288,  288, 397,  397, 365,  365, 379,  379, 378,  378, 400,
        400, 377,  377, 152,  152, 148,  148, 176,  176, 149,  149, 150,  150, 136,  136, 172,
        172, 58,  58, 132,  132, 93,  93, 234,  234, 127,  127, 162,  162, 21,  21, 54,
        54, 103,  103, 67,  67, 109,  109, 10,
    ]

    /// FACEMESH_NOSE.
    static let nosePairs: [UInt16] = [
        168, 6,  6, 197,  197, 195,  195, 5,  5, 4,  4, 1,  1, 19,  19, 94,
        94, 2,  98, 97,  97, 2,  2, 326,  326, 327,  327, 294,  294, 278,  278, 344,
        344, 440,  440, 275,  275, 4,  4, 45,  45, 220,  220, 115,  115, 48,  48, 64,
        64, 98,
    ]
}
