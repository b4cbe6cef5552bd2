import BlazeFace
import BlazeFaceMesh
import BlazeImaging
import BlazeTestSupport
import Testing

/// What FaceLandmarker's documentation promises about threads: one landmarker may be shared (its calls are
/// serialized and give the sequential results), and landmarkers of their own run side by side, each with its
/// interpreter's worker threads. Run under ThreadSanitizer by Tests/Sanitizers/tsan.sh.
@Suite("Concurrency: face landmarker")
struct LandmarkerConcurrencyTests {
    static let names = ["astronaut.png", "camera.png"]

    static func options(threads: Int = 1) -> FaceLandmarker.Options {
        var options = FaceLandmarker.Options.mediaPipe(maximumFaces: 2)
        options.threadCount = threads
        return options
    }

    @Test("one landmarker shared by four threads: every call gives the picture's sequential meshes")
    func shared() throws {
        let landmarker = try MeshSamples.landmarker(options: Self.options())
        let pictures = try Self.names.map(MeshSamples.picture)
        let sequential = try pictures.map { picture in try picture.withView { try landmarker.detect($0) } }
        #expect(sequential[0].count == 1)
        let outcome = Hammer.run(threads: 4, rounds: 3) { thread, round in
            let index = (thread + round) % pictures.count
            var meshes: [FaceLandmarks] = []
            try pictures[index].withView { try landmarker.detect($0, into: &meshes) }
            // Video mode on the same landmarker: the tracked faces are the caller's, so threads do not mix.
            var tracked = meshes
            try pictures[index].withView { try landmarker.detect($0, tracking: &tracked) }
            return (index, meshes, tracked.count)
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.all.count == 12)
        for (index, meshes, trackedCount) in outcome.all {
            #expect(meshes == sequential[index], "picture \(Self.names[index])")
            #expect(trackedCount == sequential[index].count)
        }
    }

    @Test("a landmarker per thread, each with two interpreter threads, gives the one-thread results")
    func perThread() throws {
        let pictures = try Self.names.map(MeshSamples.picture)
        let reference = try MeshSamples.landmarker(options: Self.options())
        let sequential = try pictures.map { picture in try picture.withView { try reference.detect($0) } }
        let outcome = Hammer.run(threads: 3, rounds: 1) { thread, _ in
            let landmarker = try MeshSamples.landmarker(options: Self.options(threads: 2))
            return try (0..<4).map { call in
                let index = (thread + call) % pictures.count
                return (index, try pictures[index].withView { try landmarker.detect($0) })
            }
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.all.count == 3)
        for (index, meshes) in outcome.all.joined() {
            #expect(meshes == sequential[index], "picture \(Self.names[index])")
        }
    }

    @Test("the landmarker's detector, shared with the landmarker, from several threads at once")
    func sharedDetector() throws {
        let landmarker = try MeshSamples.landmarker(options: Self.options())
        let picture = try MeshSamples.astronaut()
        let faces = try picture.withView { try landmarker.detector.detect($0) }
        let meshes = try picture.withView { try landmarker.detect($0) }
        let outcome = Hammer.run(threads: 4, rounds: 3) { thread, _ -> Found in
            try picture.withView { view -> Found in
                thread % 2 == 0 ? .faces(try landmarker.detector.detect(view)) : .meshes(try landmarker.detect(view))
            }
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.all.count == 12)
        for result in outcome.all {
            switch result {
            case let .faces(found): #expect(found == faces)
            case let .meshes(found): #expect(found == meshes)
            }
        }
    }

    enum Found: Sendable {
        case faces([Face])
        case meshes([FaceLandmarks])
    }
}
