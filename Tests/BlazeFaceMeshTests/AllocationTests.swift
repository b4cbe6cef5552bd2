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
        var faces: [FaceLandmarks] = []
        var tracked: [FaceLandmarks] = []
        var counts = (detect: -1, tracking: -1)
        try image.withView { view in
            try landmarker.detect(view, into: &faces)
            try landmarker.detect(view, into: &tracked)
            try landmarker.detect(view, tracking: &tracked)
            blaze_allocation_counting_begin()
            try landmarker.detect(view, into: &faces)
            counts.detect = blaze_allocation_counting_end()
            blaze_allocation_counting_begin()
            try landmarker.detect(view, tracking: &tracked)
            counts.tracking = blaze_allocation_counting_end()
        }
        #expect(faces.count == 1 && tracked.count == 1)
        #expect(counts.detect == 0, "\(model): \(counts.detect) allocations in detect(_:into:)")
        #expect(counts.tracking == 0, "\(model): \(counts.tracking) allocations in detect(_:tracking:)")
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
