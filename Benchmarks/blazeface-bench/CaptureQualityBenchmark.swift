import BlazeFaceAnalysis
import BlazeFaceMesh
import CAllocationCounter
import Foundation

/// Times `CaptureQualityAssessor.assess(_:face:)` (passport framing, pose estimated from the mesh, eyes given) on
/// the one face of the `--capture-quality` frame, and counts its heap allocations.
enum CaptureQualityBenchmark {
    struct Result {
        var faceSize: Double
        var medianUs: Double
        var minUs: Double
        var allocations: Int?
    }

    static func run(frame: Frame, modelsDir: String?, iterations: Int) throws -> Result {
        let landmarker = try FaceLandmarker(model: PipelineBenchmark.model, modelsDirectory: modelsDir,
                                            options: PipelineBenchmark.options(threads: 1))
        let assessor = try CaptureQualityAssessor(framing: .passport)
        return try frame.withImageView { view in
            let faces = try landmarker.detect(view)
            guard faces.count == 1 else { throw BenchFailure("\(frame.recipe): \(faces.count) faces; need one") }
            let face = CaptureFace(faces[0], leftEyeOpen: 0.9, rightEyeOpen: 0.9)
            var times: [Double] = []
            times.reserveCapacity(iterations)
            for _ in 0..<10 { _ = try assessor.assess(view, face: face) }
            var allocations: Int?
            if blaze_allocation_counting_available() == 1 {
                blaze_allocation_counting_begin()
                _ = try assessor.assess(view, face: face)
                allocations = Int(blaze_allocation_counting_end())
            }
            for _ in 0..<iterations {
                let start = nowNanoseconds()
                _ = try assessor.assess(view, face: face)
                times.append(Double(nowNanoseconds() &- start) / 1000)
            }
            return Result(faceSize: faces[0].boundingBox.height, medianUs: median(times), minUs: times.min() ?? 0,
                          allocations: allocations)
        }
    }
}
