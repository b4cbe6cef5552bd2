@testable import BlazeFaceMesh
import Testing

// MARK: - Helpers

/// An edge without direction.
private struct Edge: Hashable, CustomStringConvertible {
    let a: Int, b: Int
    init(_ a: Int, _ b: Int) { (self.a, self.b) = (min(a, b), max(a, b)) }
    init(_ c: LandmarkConnection) { self.init(c.start, c.end) }
    var description: String { "\(a)-\(b)" }
}

private func undirected(_ list: [LandmarkConnection]) -> Set<Edge> { Set(list.map(Edge.init)) }

private func points(_ list: [LandmarkConnection]) -> Set<Int> { Set(list.flatMap { [$0.start, $0.end] }) }

/// The connected components of an undirected graph, each described as a cycle or a path of its point count,
/// or as "other" when it is neither; sorted.
private func shapes(_ list: [LandmarkConnection]) -> [String] {
    var neighbours = [Int: Set<Int>]()
    for c in list {
        neighbours[c.start, default: []].insert(c.end)
        neighbours[c.end, default: []].insert(c.start)
    }
    var unseen = Set(neighbours.keys), result = [String]()
    while let first = unseen.first {
        var component = Set<Int>(), stack = [first]
        while let p = stack.popLast() {
            guard component.insert(p).inserted else { continue }
            stack.append(contentsOf: neighbours[p] ?? [])
        }
        unseen.subtract(component)
        let degrees = component.map { neighbours[$0]?.count ?? 0 }
        let edges = degrees.reduce(0, +) / 2
        if degrees.allSatisfy({ $0 == 2 }) {
            result.append("cycle \(component.count)")
        } else if edges == component.count - 1, degrees.filter({ $0 == 1 }).count == 2,
                  degrees.allSatisfy({ $0 <= 2 }) {
            result.append("path \(component.count)")
        } else {
            result.append("other \(component.count)")
        }
    }
    return result.sorted()
}

private func isSorted(_ list: [LandmarkConnection]) -> Bool {
    zip(list, list.dropFirst()).allSatisfy { ($0.start, $0.end) < ($1.start, $1.end) }
}

/// The mirror image of a list of edges on the canonical face.
private func mirrored(_ list: [LandmarkConnection]) -> Set<Edge> {
    Set(list.map { Edge(CanonicalFace.mirrors[$0.start], CanonicalFace.mirrors[$0.end]) })
}

private let allLists: [(name: String, list: [LandmarkConnection])] = [
    ("tessellation", FaceMeshConnections.tessellation), ("contours", FaceMeshConnections.contours),
    ("lips", FaceMeshConnections.lips), ("leftEye", FaceMeshConnections.leftEye),
    ("leftEyebrow", FaceMeshConnections.leftEyebrow), ("rightEye", FaceMeshConnections.rightEye),
    ("rightEyebrow", FaceMeshConnections.rightEyebrow), ("faceOval", FaceMeshConnections.faceOval),
    ("nose", FaceMeshConnections.nose), ("leftIris", FaceMeshConnections.leftIris),
    ("rightIris", FaceMeshConnections.rightIris), ("irises", FaceMeshConnections.irises),
]

// MARK: - Connections

@Suite("Face mesh connections")
struct FaceMeshConnectionTests {
    /// The counts are len() of each frozenset in MediaPipe's face_mesh_connections.py. FACEMESH_TESSELATION
    /// is written as 852 triangles of 3 directed edges, 2556 pairs, none repeated.
    @Test("Counts equal MediaPipe's")
    func counts() {
        let expected = [
            "tessellation": 2556, "contours": 124, "lips": 40, "leftEye": 16, "leftEyebrow": 8, "rightEye": 16,
            "rightEyebrow": 8, "faceOval": 36, "nose": 25, "leftIris": 4, "rightIris": 4, "irises": 8,
        ]
        for (name, list) in allLists {
            #expect(list.count == expected[name], "\(name): \(list.count)")
        }
        #expect(FaceMeshConnections.tessellationTriangles.count == 852 * 3)
    }

    @Test("Sorted, no duplicates, no self-edges, indices in range")
    func wellFormed() {
        for (name, list) in allLists {
            #expect(isSorted(list), "\(name) is not sorted (or has a duplicate)")
            #expect(!list.contains { $0.start == $0.end }, "\(name) has a self-edge")
            let range = name.hasSuffix("Iris") || name == "irises" ? 468..<478 : 0..<468
            #expect(points(list).allSatisfy(range.contains), "\(name) has an index outside \(range)")
        }
    }

    /// The mesh is a surface of 852 triangles over all 468 points with 1322 distinct edges: Euler
    /// characteristic 468 - 1322 + 852 = -2, a sphere with four holes. The holes are the face's outline,
    /// the two eyes and the mouth: the edges that appear in one direction only are exactly the face oval,
    /// both eye contours and the inner lip line (36 + 16 + 16 + 20 = 88).
    @Test("The tessellation is a consistently oriented surface whose borders are the oval, eyes and mouth")
    func tessellationSurface() {
        let tessellation = FaceMeshConnections.tessellation
        #expect(points(tessellation) == Set(0..<468))
        let edges = undirected(tessellation)
        #expect(edges.count == 1322)
        #expect(468 - edges.count + FaceMeshConnections.tessellationTriangles.count / 3 == -2)

        let directed = Set(tessellation)
        let border = tessellation.filter { !directed.contains(LandmarkConnection(start: $0.end, end: $0.start)) }
        #expect(border.count == 88)
        let innerLine = Set(RefinementIndices.lips[20..<40])  // the attention model's inner lip points
        let innerLips = FaceMeshConnections.lips.filter { innerLine.contains($0.start) && innerLine.contains($0.end) }
        #expect(shapes(innerLips) == ["cycle 20"])
        let holes = undirected(FaceMeshConnections.faceOval + FaceMeshConnections.leftEye
                               + FaceMeshConnections.rightEye + innerLips)
        #expect(undirected(border) == holes)
    }

    @Test("Contours are the cycles and paths they should be")
    func shapesOfContours() {
        #expect(shapes(FaceMeshConnections.lips) == ["cycle 20", "cycle 20"])
        #expect(shapes(FaceMeshConnections.leftEye) == ["cycle 16"])
        #expect(shapes(FaceMeshConnections.rightEye) == ["cycle 16"])
        #expect(shapes(FaceMeshConnections.leftEyebrow) == ["path 5", "path 5"])
        #expect(shapes(FaceMeshConnections.rightEyebrow) == ["path 5", "path 5"])
        #expect(shapes(FaceMeshConnections.faceOval) == ["cycle 36"])
        #expect(shapes(FaceMeshConnections.leftIris) == ["cycle 4"])
        #expect(shapes(FaceMeshConnections.rightIris) == ["cycle 4"])
        // The nose: one piece, 24 points, a loop around the nostrils and the tip (4, where the bridge joins,
        // has 4 neighbours; 2, where the bridge ends on the loop, 3) and the bridge's free end 168.
        #expect(shapes(FaceMeshConnections.nose) == ["other 24"])
        let nose = FaceMeshConnections.nose
        let degree = { (p: Int) in nose.filter { $0.start == p || $0.end == p }.count }
        #expect(degree(168) == 1 && degree(2) == 3 && degree(4) == 4)
        #expect(points(nose).filter { degree($0) == 2 }.count == 21)
    }

    @Test("contours and irises are the unions of their parts, as in MediaPipe")
    func unions() {
        let parts = FaceMeshConnections.lips + FaceMeshConnections.leftEye + FaceMeshConnections.leftEyebrow
            + FaceMeshConnections.rightEye + FaceMeshConnections.rightEyebrow + FaceMeshConnections.faceOval
        #expect(Set(FaceMeshConnections.contours) == Set(parts))
        #expect(Set(FaceMeshConnections.irises)
                == Set(FaceMeshConnections.leftIris + FaceMeshConnections.rightIris))
        // Every contour edge is a mesh edge.
        let mesh = undirected(FaceMeshConnections.tessellation)
        let meshParts = FaceMeshConnections.contours + FaceMeshConnections.nose
        #expect(undirected(meshParts).subtracting(mesh).isEmpty)
    }

    /// "Left" is the subject's left: on MediaPipe's canonical face x grows towards the subject's left.
    @Test("Left regions are on the subject's left, and mirror the right ones")
    func sides() {
        let x = { (i: Int) in CanonicalFace.vertex(i).x }
        let pairs = [
            (FaceMeshConnections.leftEye, FaceMeshConnections.rightEye),
            (FaceMeshConnections.leftEyebrow, FaceMeshConnections.rightEyebrow),
            (FaceMeshConnections.leftIris, FaceMeshConnections.rightIris),
        ]
        for (left, right) in pairs {
            #expect(points(left).allSatisfy { x($0) > 0 })
            #expect(points(right).allSatisfy { x($0) < 0 })
            #expect(mirrored(left) == undirected(right))
        }
        #expect(points(FaceMeshConnections.leftEye).isSuperset(of: [263, 362]))
        #expect(points(FaceMeshConnections.rightEye).isSuperset(of: [33, 133]))
        #expect(points(FaceMeshConnections.leftIris) == [474, 475, 476, 477])
        #expect(points(FaceMeshConnections.rightIris) == [469, 470, 471, 472])
        for middle in [FaceMeshConnections.lips, FaceMeshConnections.faceOval, FaceMeshConnections.nose] {
            #expect(mirrored(middle) == undirected(middle))
        }
        // MediaPipe's triangulation is symmetric but for 6 diagonals: 1316 of its 1322 edges have a mirror image.
        let mesh = undirected(FaceMeshConnections.tessellation)
        #expect(mirrored(FaceMeshConnections.tessellation).intersection(mesh).count == 1316)
    }
}

// MARK: - Regions

@Suite("Face regions")
struct FaceRegionTests {
    @Test("Each region's connections, indices and refinement flag")
    func regions() {
        #expect(FaceRegion.allCases.count == 9)
        let lists: [FaceRegion: [LandmarkConnection]] = [
            .lips: FaceMeshConnections.lips, .leftEye: FaceMeshConnections.leftEye,
            .rightEye: FaceMeshConnections.rightEye, .leftEyebrow: FaceMeshConnections.leftEyebrow,
            .rightEyebrow: FaceMeshConnections.rightEyebrow, .leftIris: FaceMeshConnections.leftIris,
            .rightIris: FaceMeshConnections.rightIris, .faceOval: FaceMeshConnections.faceOval,
            .nose: FaceMeshConnections.nose,
        ]
        for region in FaceRegion.allCases {
            #expect(region.connections == lists[region], "\(region)")
            let centre: Set<Int> = region == .leftIris ? [473] : region == .rightIris ? [468] : []
            #expect(region.indices == points(region.connections).union(centre).sorted(), "\(region)")
            #expect(region.requiresRefinedLandmarks == region.indices.contains { $0 >= 468 }, "\(region)")
            #expect(FaceRegion(rawValue: region.rawValue) == region)
        }
        #expect(FaceRegion.faceOval.indices.count == 36 && FaceRegion.lips.indices.count == 40)
        #expect(FaceRegion.leftIris.indices == [473, 474, 475, 476, 477])
        #expect(FaceRegion.rightIris.indices == [468, 469, 470, 471, 472])
        #expect(FaceRegion.allCases.filter(\.requiresRefinedLandmarks) == [.leftIris, .rightIris])
        #expect(FaceRegion.leftEye.rawValue == "leftEye")
    }

    @Test("Left regions hold the subject's left landmarks (263, 362, 473...477)")
    func leftIsTheSubjectsLeft() {
        #expect(FaceRegion.leftEye.indices.contains(263) && FaceRegion.leftEye.indices.contains(362))
        #expect(FaceRegion.rightEye.indices.contains(33) && FaceRegion.rightEye.indices.contains(133))
        for region in [FaceRegion.leftEye, .leftEyebrow, .leftIris] {
            #expect(region.indices.allSatisfy { CanonicalFace.vertex($0).x > 0 }, "\(region)")
        }
        for region in [FaceRegion.rightEye, .rightEyebrow, .rightIris] {
            #expect(region.indices.allSatisfy { CanonicalFace.vertex($0).x < 0 }, "\(region)")
        }
    }
}

// MARK: - Refinement maps

@Suite("Refinement indices")
struct RefinementIndicesTests {
    typealias R = RefinementIndices

    /// Lengths of MediaPipe's maps: tensors_to_face_landmarks_with_attention.pbtxt (468, 80, 71, 71, 5, 5;
    /// 16 and 16 indexes_for_average) and update_face_landmarks_calculator.cc (142).
    @Test("Counts equal MediaPipe's and no map repeats an index")
    func counts() {
        let maps = [R.mesh, R.lips, R.leftEye, R.rightEye, R.leftIris, R.rightIris]
        #expect(maps.map(\.count) == [468, 80, 71, 71, 5, 5])
        #expect(R.leftIrisDepthSources.count == 16 && R.rightIrisDepthSources.count == 16)
        #expect(R.irisModelEyeContour.count == 142)
        #expect(R.irisModelEyeContour.count == 2 * R.irisEyeContourCount && R.leftIris.count == R.irisPointCount)
        for map in maps + [R.leftIrisDepthSources, R.rightIrisDepthSources, R.irisModelEyeContour] {
            #expect(Set(map).count == map.count)
        }
    }

    /// LandmarksRefinementCalculator needs the maps' union to be 0...max without gaps; the lips and eye maps
    /// refine disjoint mesh points.
    @Test("The maps cover 0..<478 exactly; lips and eyes are disjoint mesh points")
    func coverage() {
        #expect(R.mesh == Array(0..<468))
        let union = Set(R.mesh + R.lips + R.leftEye + R.rightEye + R.leftIris + R.rightIris)
        #expect(union == Set(0..<R.refinedCount) && R.refinedCount == 478 && R.meshCount == 468)
        let refined = R.lips + R.leftEye + R.rightEye
        #expect(Set(refined).count == 80 + 71 + 71 && refined.allSatisfy { $0 < R.meshCount })
        #expect(R.leftIris == Array(468...472) && R.rightIris == Array(473...477))
    }

    /// The model's "left" is the image's left: the subject's right eye (canonical x < 0).
    @Test("The model's left eye and iris are the image's left: the subject's right")
    func sides() {
        #expect((R.leftEye + R.leftIris + R.irisLeftEyeCorners).allSatisfy { CanonicalFace.vertex($0).x < 0 })
        #expect((R.rightEye + R.rightIris + R.irisRightEyeCorners).allSatisfy { CanonicalFace.vertex($0).x > 0 })
        // Its lid line is FaceMeshConnections' right eye, the subject's.
        #expect(Set(R.leftEye.prefix(16)) == Set(FaceRegion.rightEye.indices))
        #expect(Set(R.rightEye.prefix(16)) == Set(FaceRegion.leftEye.indices))
        // Entry by entry, the right eye's map mirrors the left eye's.
        #expect(R.leftEye.map { CanonicalFace.mirrors[$0] } == R.rightEye)
        #expect(R.leftIrisDepthSources.map { CanonicalFace.mirrors[$0] } == R.rightIrisDepthSources)
        #expect(Set(R.leftIris.map { CanonicalFace.mirrors[$0] }) == Set(R.rightIris))
        // The lips map is symmetric, its first 40 points are the lip lines.
        #expect(Set(R.lips.map { CanonicalFace.mirrors[$0] }) == Set(R.lips))
        #expect(Set(R.lips.prefix(40)) == Set(FaceRegion.lips.indices))
        // Each iris model region's corners: the image's left one first.
        for corners in [R.irisLeftEyeCorners, R.irisRightEyeCorners] {
            #expect(corners.count == 2 && CanonicalFace.vertex(corners[0]).x < CanonicalFace.vertex(corners[1]).x)
        }
    }

    @Test("Iris depth sources are the eyes' lid lines; the iris model overwrites the attention model's eye points")
    func irisData() {
        #expect(R.leftIrisDepthSources == Array(R.leftEye.prefix(16)))
        #expect(R.rightIrisDepthSources == Array(R.rightEye.prefix(16)))
        #expect(R.irisModelEyeContour == R.leftEye + R.rightEye)
        #expect(R.irisLeftEyeCorners == [33, 133] && R.irisRightEyeCorners == [362, 263])
        #expect(R.irisRegionScale == 2.3 && R.irisInputSize == 64)
    }
}
