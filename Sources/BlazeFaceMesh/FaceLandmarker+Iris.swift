import BlazeImaging
import BlazeModels
import BlazeRegions
import Foundation

extension FaceLandmarker {
    /// MediaPipe's legacy iris pipeline (`iris_landmark_left_and_right_cpu.pbtxt`, `iris_landmark_cpu.pbtxt`,
    /// `update_face_landmarks_calculator.cc`), run on a 468-point mesh:
    ///
    /// 1. For each eye, a region from its two corners — mesh points (33, 133) for the eye on the image's left,
    ///    (362, 263) for the other — turned level along them, square on the long side, 2.3 times as large.
    /// 2. The region is sampled into the 64x64 input (values 0...1, repeated border); the second eye's input
    ///    is mirrored left to right, so that the model always sees an eye of the same side.
    /// 3. The outputs, 71 eye-contour and brow points and 5 iris points (x, y, z in input pixels), are
    ///    divided by 64 (x mirrored back for the second eye) and projected out of the region like the mesh.
    /// 4. The contour points replace their mesh points (the same indices as the attention model's eye
    ///    refinement, x, y and z), and the irises follow: 468...472 for the image-left eye, 473...477.
    ///
    /// MediaPipe crops the region at its own size and then resizes it to 64x64 (two resamplings); this one
    /// samples the region straight into 64x64, so its inputs differ from MediaPipe's by interpolation only.
    final class IrisRefiner {
        private let session: ModelSession
        private let contour: ModelSession.Output
        private let iris: ModelSession.Output
        /// x, y, z of 71 + 5 points, in fractions of the input; used inside `refine` only (under the
        /// landmarker's lock).
        private let normalized: UnsafeMutablePointer<Float>
        /// Projected points of one eye and the irises of both, reused (under the landmarker's lock).
        private var projected: [Landmark] = []
        private var irises = [Landmark](repeating: Landmark(x: 0, y: 0, z: 0), count: 10)

        init(modelPath: String, threadCount: Int, limits: ModelLimits) throws(FaceLandmarkerError) {
            do {
                session = try ModelSession(modelPath: modelPath,
                                           conversion: .init(range: 0...1, fit: .letterbox, border: .replicate,
                                                             sampling: .warp),
                                           threadCount: threadCount, limits: limits)
            } catch {
                throw .session(error, modelPath: modelPath)
            }
            guard session.inputWidth == 64, session.inputHeight == 64, session.outputs.count == 2,
                  let contour = session.outputs.first(where: { $0.elementCount == 71 * 3 }),
                  let iris = session.outputs.first(where: { $0.elementCount == 5 * 3 }) else {
                throw .incompatibleModel(path: modelPath, reason: "expected a 1x64x64x3 input and outputs of 213 and "
                                         + "15 values, the model has \(session.outputs.map(\.shape))")
            }
            self.contour = contour
            self.iris = iris
            normalized = .allocate(capacity: 76 * 3)
            projected.reserveCapacity(76)
        }

        deinit {
            normalized.deallocate()
        }

        /// The two eyes: corner points, whether the input is mirrored, and the mesh points the contour replaces.
        private static let eyes: [(start: Int, end: Int, mirrored: Bool, contour: [Int])] = [
            (33, 133, false, RefinementIndices.leftEye), (362, 263, true, RefinementIndices.rightEye),
        ]

        /// Refines the eyes of a 468-point mesh (upright pixels) and appends the ten iris points.
        /// Allocation-free once `points` has room for 478.
        func refine(_ image: ImageView, points: inout [Landmark]) throws(FaceLandmarkerError) {
            guard points.count == 468 else { return }
            let width = image.uprightWidth, height = image.uprightHeight
            // Both eyes' regions come from the unrefined mesh, as in MediaPipe's graph.
            let first = Self.eyes[0], second = Self.eyes[1]
            let regions = (RegionRecipe.eye.region(from: points[first.start], to: points[first.end],
                                                   imageWidth: width, imageHeight: height),
                           RegionRecipe.eye.region(from: points[second.start], to: points[second.end],
                                                   imageWidth: width, imageHeight: height))
            for eye in 0..<2 {
                let region = eye == 0 ? regions.0 : regions.1, (_, _, mirrored, contour) = Self.eyes[eye]
                guard region.isUsable else { throw .invalidImage("the eye region \(region) is degenerate") }
                try infer(image, region: region.pixels(imageWidth: width, imageHeight: height), mirrored: mirrored)
                FaceLandmarker.project(normalized, count: 76, region: region, imageWidth: width, imageHeight: height,
                                       into: &projected)
                for point in 0..<71 { points[contour[point]] = projected[point] }
                for point in 71..<76 { irises[5 * eye + point - 71] = projected[point] }
            }
            for point in 0..<10 { points.append(irises[point]) }
        }

        /// Runs the iris model and decodes its 76 points into `normalized`.
        private func infer(_ image: ImageView, region: RotatedRect, mirrored: Bool) throws(FaceLandmarkerError) {
            let contour = contour, iris = iris, normalized = normalized
            let finite: Bool
            do {
                finite = try session.run(image, region: region, mirrored: mirrored) { outputs, _ throws(ModelSessionError) in
                    let contourFinite = Self.decode(outputs[contour], count: 71, at: 0, mirrored: mirrored, into: normalized)
                    let irisFinite = Self.decode(outputs[iris], count: 5, at: 71, mirrored: mirrored, into: normalized)
                    return contourFinite && irisFinite
                }
            } catch {
                throw .session(error, modelPath: session.modelPath)
            }
            guard finite else { throw .nonFiniteOutput(path: session.modelPath) }
        }

        /// Decodes `count` points (x, y, z in input pixels) into `normalized` from point `first` on, x mirrored
        /// back for a mirrored input; false when a value is not finite.
        private static func decode(_ values: UnsafeBufferPointer<Float>, count: Int, at first: Int, mirrored: Bool,
                                   into normalized: UnsafeMutablePointer<Float>) -> Bool {
            var finite = true
            for point in 0..<count {
                var x = values[3 * point]
                let y = values[3 * point + 1], z = values[3 * point + 2]
                finite = finite && x.isFinite && y.isFinite && z.isFinite
                if mirrored { x = 64 - x }
                normalized[3 * (first + point)] = x / 64
                normalized[3 * (first + point) + 1] = y / 64
                normalized[3 * (first + point) + 2] = z / 64
            }
            return finite
        }
    }
}
