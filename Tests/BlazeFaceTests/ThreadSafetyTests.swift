import BlazeFace
import BlazeTestSupport
import Dispatch
import Testing

/// One detector shared by two threads: calls are serialized by its lock and give the sequential results.
@Suite("Thread safety")
struct ThreadSafetyTests {
    @Test("concurrent detect calls on one detector match sequential ones")
    func sharedDetector() throws {
        // The detector other tests share too (and call meanwhile); the sequential results were made by it.
        let detector = try Detectors.shared(.shortRange)
        let names = ["astronaut", "astronaut_pair_512x512"]
        let pictures = try names.map { try Samples.picture($0) }
        let sequential = try names.map { try ReferenceFaces.faces(.shortRange, $0) }
        #expect(sequential.map(\.count) == [1, 2])

        let results = Collector<(picture: Int, faces: [Face])>()
        let failures = Collector<String>()
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for call in 0..<3 {
                let picture = (thread + call) % 2
                do {
                    results.append((picture, try pictures[picture].detect(with: detector)))
                } catch {
                    failures.append("thread \(thread) call \(call): \(error)")
                }
            }
        }
        #expect(failures.elements.isEmpty, "\(failures.elements)")
        #expect(results.elements.count == 6)
        for (picture, faces) in results.elements {
            #expect(faces == sequential[picture], "picture \(picture): \(describe(faces)) vs \(describe(sequential[picture]))")
        }
    }
}
