import BlazeImaging
import BlazeModels
import BlazeRegions
import Foundation

extension FaceLandmarker {
    /// Where a mesh model keeps what, found once at creation: the 468-point mesh and the face flag, and for the
    /// attention model the refined lips, eyes and irises (`tensors_to_face_landmarks_with_attention.pbtxt`).
    struct MeshOutputs {
        struct Refinement {
            let lips: ModelSession.Output
            let leftEye: ModelSession.Output
            let rightEye: ModelSession.Output
            let leftIris: ModelSession.Output
            let rightIris: ModelSession.Output
        }

        let mesh: ModelSession.Output
        let flag: ModelSession.Output
        let refinement: Refinement?

        /// The outputs by size, in the model's order (mesh 1404 = 468 x 3, lips 160 = 80 x 2, eyes 142 = 71 x 2
        /// each, the image-left eye first, irises 10 = 5 x 2 each, flag 1). Nil when they do not fit.
        init?(_ outputs: [ModelSession.Output], refined: Bool) {
            func find(_ count: Int, _ occurrence: Int = 0) -> ModelSession.Output? {
                let matches = outputs.filter { $0.elementCount == count }
                return occurrence < matches.count ? matches[occurrence] : nil
            }
            guard let mesh = find(468 * 3), let flag = find(1) else { return nil }
            self.mesh = mesh
            self.flag = flag
            if refined {
                guard outputs.count == 7, let lips = find(80 * 2), let leftEye = find(71 * 2, 0),
                      let rightEye = find(71 * 2, 1), let leftIris = find(5 * 2, 0), let rightIris = find(5 * 2, 1)
                else { return nil }
                refinement = Refinement(lips: lips, leftEye: leftEye, rightEye: rightEye, leftIris: leftIris,
                                        rightIris: rightIris)
            } else {
                guard outputs.count == 2 else { return nil }
                refinement = nil
            }
        }

        /// The number of points decoded: 478 with refinement, else 468.
        var pointCount: Int { refinement == nil ? 468 : 478 }
    }

    /// The model's side in pixels; every coordinate output is in these units (`TensorsToLandmarksCalculator`
    /// with `input_image_width` and `input_image_height` 192).
    static let meshInputSize: Float = 192

    /// MediaPipe's face presence: the sigmoid of the face flag (`TensorsToFloatsCalculator`, SIGMOID).
    static func presence(flag: Float) -> Float { 1 / (1 + exp(-flag)) }

    /// Decodes the mesh outputs into `normalized` (x, y, z per point, fractions of the model input; z on x's
    /// scale) and applies the attention model's refinement: lips and eyes overwrite x and y of their mesh
    /// points, irises get x and y from their outputs and z as the mean z of their eye's contour
    /// (`LandmarksRefinementCalculator`). Returns false when an output holds a non-finite value.
    static func decode(_ outputs: ModelSession.Outputs, _ layout: MeshOutputs,
                       into normalized: UnsafeMutablePointer<Float>) -> Bool {
        let size = meshInputSize
        let mesh = outputs[layout.mesh]
        var finite = true
        for index in 0..<468 {
            let x = mesh[3 * index], y = mesh[3 * index + 1], z = mesh[3 * index + 2]
            finite = finite && x.isFinite && y.isFinite && z.isFinite
            normalized[3 * index] = x / size
            normalized[3 * index + 1] = y / size
            normalized[3 * index + 2] = z / size / 1   // normalize_z 1, as MediaPipe divides
        }
        guard let refinement = layout.refinement else { return finite }
        finite = refineXY(outputs[refinement.lips], RefinementIndices.lips, normalized) && finite
        finite = refineXY(outputs[refinement.leftEye], RefinementIndices.leftEye, normalized) && finite
        finite = refineXY(outputs[refinement.rightEye], RefinementIndices.rightEye, normalized) && finite
        finite = refineXY(outputs[refinement.leftIris], RefinementIndices.leftIris, normalized) && finite
        assignMeanZ(RefinementIndices.leftIris, from: RefinementIndices.leftIrisDepthSources, normalized)
        finite = refineXY(outputs[refinement.rightIris], RefinementIndices.rightIris, normalized) && finite
        assignMeanZ(RefinementIndices.rightIris, from: RefinementIndices.rightIrisDepthSources, normalized)
        return finite
    }

    /// Overwrites x and y of the points `targets` with the (x, y) pairs of `values` (model input pixels);
    /// false when a value is not finite.
    private static func refineXY(_ values: UnsafeBufferPointer<Float>, _ targets: [Int],
                                 _ normalized: UnsafeMutablePointer<Float>) -> Bool {
        let size = meshInputSize
        var finite = true
        for point in 0..<targets.count {
            let x = values[2 * point], y = values[2 * point + 1], target = targets[point]
            finite = finite && x.isFinite && y.isFinite
            normalized[3 * target] = x / size
            normalized[3 * target + 1] = y / size
        }
        return finite
    }

    /// Sets z of the points `targets` to the mean z of the points `sources` (summed in double, as MediaPipe).
    private static func assignMeanZ(_ targets: [Int], from sources: [Int], _ normalized: UnsafeMutablePointer<Float>) {
        var sum = 0.0
        for index in 0..<sources.count { sum += Double(normalized[3 * sources[index] + 2]) }
        let mean = Float(sum / Double(sources.count))
        for index in 0..<targets.count { normalized[3 * targets[index] + 2] = mean }
    }

    /// Projects `count` normalized points out of `region` into upright image pixels, replacing the contents
    /// of `points` (MediaPipe's `LandmarkProjectionCalculator` for a square region, in float; then x and z
    /// times the image width and y times its height).
    static func project(_ normalized: UnsafePointer<Float>, count: Int, region: NormalizedRegion,
                        imageWidth: Int, imageHeight: Int, into points: inout [Landmark]) {
        let projection = RegionProjection(region, imageWidth: imageWidth, imageHeight: imageHeight)
        points.removeAll(keepingCapacity: true)
        for index in 0..<count {
            let p = projection(x: normalized[3 * index], y: normalized[3 * index + 1], z: normalized[3 * index + 2])
            points.append(Landmark(x: p.x, y: p.y, z: p.z))
        }
    }
}
