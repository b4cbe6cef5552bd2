import BlazeModels
import BlazeRuntime
import BlazeTestSupport
import CAllocationCounter
import Testing

/// The face mesh with attention runs MediaPipe's custom operators on every invoke: they too must not touch
/// the heap.
@Suite("Allocations of the attention mesh")
struct AttentionMeshAllocationTests {
    @Test("invoke() of face_landmark_with_attention performs no heap allocation",
          .enabled(if: blaze_allocation_counting_available() == 1), arguments: [1, 2])
    func invokeDoesNotAllocate(threads: Int) throws {
        let interpreter = try Interpreter(modelPath: try TestResources.modelPath(.faceMeshAttention),
                                          options: .init(threadCount: threads))
        interpreter.withInput(at: 0) { buffer in
            for i in buffer.indices { buffer[i] = Float(i % 255) / 255 }
        }
        interpreter.invoke()
        blaze_allocation_counting_begin()
        interpreter.invoke()
        interpreter.invoke()
        let count = blaze_allocation_counting_end()
        #expect(count == 0, "\(threads) threads: \(count) allocations in two invoke() calls")
    }
}
