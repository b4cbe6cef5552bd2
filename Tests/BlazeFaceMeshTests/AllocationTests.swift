import BlazeFaceMesh
import BlazeTestSupport
import CAllocationCounter
import Testing

/// Once warmed up with the same number of faces, the landmarker's frame calls allocate nothing on the calling
/// thread (CAllocationCounter, Linux/glibc only).
@Suite("FaceLandmarker allocations")
struct FaceLandmarkerAllocationTests {
    @Test("detect(_:into:) and detect(_:tracking:) perform no heap allocation",
          .enabled(if: blaze_allocation_counting_available() == 1), arguments: FaceLandmarker.Model.allCases)
    func noAllocation(_ model: FaceLandmarker.Model) throws {
        let landmarker = try MeshSamples.landmarker(model, options: .init(maximumFaces: 1))
        let image = try MeshSamples.astronaut()
        let counts = try image.withView { view in try Self.steadyStateAllocations(landmarker, view) }
        #expect(counts.faces == 1 && counts.tracked == 1)
        #expect(counts.detect == 0, "\(model): \(counts.detect) allocations in detect(_:into:)")
        #expect(counts.tracking == 0, "\(model): \(counts.tracking) allocations in detect(_:tracking:)")
    }

    /// Warms `landmarker` up on `view` (both frame calls, so every scratch buffer exists), then counts the heap
    /// allocations of one `detect(_:into:)` and one `detect(_:tracking:)`, and the faces each gave.
    static func steadyStateAllocations(
        _ landmarker: FaceLandmarker, _ view: ImageView
    ) throws -> (detect: Int, tracking: Int, faces: Int, tracked: Int) {
        var faces: [FaceLandmarks] = [], tracked: [FaceLandmarks] = []
        try landmarker.detect(view, into: &faces)
        try landmarker.detect(view, into: &tracked)
        try landmarker.detect(view, tracking: &tracked)
        blaze_allocation_counting_begin()
        try landmarker.detect(view, into: &faces)
        let detect = blaze_allocation_counting_end()
        blaze_allocation_counting_begin()
        try landmarker.detect(view, tracking: &tracked)
        let tracking = blaze_allocation_counting_end()
        return (detect, tracking, faces.count, tracked.count)
    }
}

@Suite("FaceLandmarker threads")
struct FaceLandmarkerThreadTests {
    @Test("one landmarker shared by several threads gives each the same faces as one thread alone")
    func sharedLandmarker() async throws {
        let landmarker = try MeshSamples.landmarker()
        let image = try MeshSamples.astronaut()
        let expected = try image.withView { try landmarker.detect($0) }
        try await withThrowingTaskGroup(of: [FaceLandmarks].self) { group in
            for _ in 0..<4 {
                group.addTask { try image.withView { try landmarker.detect($0) } }
            }
            for try await faces in group { #expect(faces == expected) }
        }
    }
}
