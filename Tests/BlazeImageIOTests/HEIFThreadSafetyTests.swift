import BlazeImageIO
import Dispatch
import Foundation
import Synchronization
import Testing

/// HEIF/AVIF decoding and colour conversion on several threads at once: libheif is initialised once per process,
/// the bounded codec plugins keep their pixel limit per thread, and each conversion has a LittleCMS context of its
/// own. Every concurrent decode must equal the sequential one. (In the TSan set of Tests/Sanitizers/run.sh.)
@Suite("HEIF thread safety")
struct HEIFThreadSafetyTests {
    @Test func concurrentDecodesMatchSequentialOnes() throws {
        let files = ["heif_grid.heic", "avif_alpha_premultiplied.avif", "heif_display_p3.heic", "heif_nclx_p3.heic",
                     "jpeg_adobe_rgb_split.jpg", "png_gray_linear_profile.png", "heif_sps_bomb.heic"]
        let inputs = try files.map(Fixtures.bytes)
        let sequential = inputs.map { data in Result { () throws(ImageIOError) in try ImageDecoder.decode(data: data) } }
        let mismatches = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<files.count * 2 {
                let index = (thread + round) % files.count
                let result = Result { () throws(ImageIOError) in try ImageDecoder.decode(data: inputs[index]) }
                if result != sequential[index] {
                    mismatches.withLock { $0.append("thread \(thread): \(files[index])") }
                }
            }
        }
        #expect(mismatches.withLock { $0 }.isEmpty, "\(mismatches.withLock { $0 })")
        #expect((try? sequential[0].get())?.width == 64)
    }
}
