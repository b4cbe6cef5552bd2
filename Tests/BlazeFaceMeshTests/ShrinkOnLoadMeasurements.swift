import BlazeFaceMesh
import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// Issue 25's shrink-on-load measurements (Documentation/Imaging.md, "Photo libraries"): every sample upscaled to
/// 12 and 24 MP (`LargeSamples`, libjpeg quality 90), decoded at 1/1, 1/2, 1/4 and 1/8, and compared with the full
/// decode: the detectors' boxes (worst IoU of a full-decode face with its best match) and the mesh (worst NME
/// over the inter-ocular distance, every face's mesh run from the full decode's detection scaled down), with the
/// decoded long side over the detector input and the smallest mesh region in decoded pixels. The noise floor: the
/// same picture encoded at quality 95, decoded in full, and the full decode shifted by one pixel. Then every scale
/// against an anti-aliased reference (the full decode box-filtered to a long side of about 384), and the faces
/// below IoU 0.95 with their size in detector-input pixels and their scores.
///
/// A report, not a check: it runs only with `BLAZEFACE_SHRINK_REPORT=1` and prints Markdown tables
/// (`Tests/ShrinkOnLoad/measure.sh` runs it).
@Suite("Shrink-on-load measurements", .enabled(if: ProcessInfo.processInfo.environment["BLAZEFACE_SHRINK_REPORT"] == "1"))
struct ShrinkOnLoadMeasurements {
    static let files = ["t1.jpg", "multi_face.jpg", "0-f1-su-ph.jpg", "0-f15-hao-ph.jpg", "15-f13-anc-ph.jpg",
                        "45-m7-di-ph.jpg", "astronaut.png", "biden.jpg", "breakingbad.jpg", "chelsea.png", "obama.jpg",
                        "obama2.jpg", "obama3.jpg", "single_face.jpg", "tongue.jpg", "rocket.jpg", "coffee.png",
                        "camera.png"]

    struct Row {
        var megapixels: Int, file: String, denominator: Int, longSide: Int, faces: Int
        var fullRangeIoU: Double, fullRangeCount: String, shortRangeIoU: Double, shortRangeCount: String
        var meshNME: Double, smallestRegion: Double, decodeMilliseconds: Double
    }

    /// The worst best-match IoU of the reference faces among `faces`, and "n/m" counts.
    static func worstIoU(_ reference: [Face], _ faces: [Face]) -> (Double, String) {
        var worst = 1.0
        for face in reference {
            worst = min(worst, faces.map { $0.boundingBox.iou(face.boundingBox) }.max() ?? 0)
        }
        return (worst, faces.count == reference.count ? "\(faces.count)" : "\(faces.count)/\(reference.count)")
    }

    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return best
    }

    @Test func report() throws {
        let models = MeshSamples.modelsDirectory
        let fullRange = try FaceDetector(model: .fullRange, modelsDirectory: models,
                                         options: .init(minimumScore: 0.5, iouThreshold: 0.5))
        let shortRange = try FaceDetector(model: .shortRange, modelsDirectory: models,
                                          options: .init(minimumScore: 0.5, iouThreshold: 0.5))
        let landmarker = try MeshSamples.landmarker()
        var rows: [Row] = []
        var noise: [String] = []
        var details: [String] = []
        var boxed: [String] = []
        for megapixels in [12, 24] {
            for file in Self.files {
                let data = try LargeSamples.jpeg(file, megapixels: megapixels, quality: 90)
                let full = try ImageDecoder.decode(data: data)
                let longSide = max(full.width, full.height)
                let referenceFull = try full.withView { try fullRange.detect($0) }
                let referenceShort = try full.withView { try shortRange.detect($0) }
                let referenceMeshes = try full.withView { try landmarker.landmarks($0, for: referenceFull) }
                // Noise floor: the same upscale at quality 95, decoded in full.
                let other = try ImageDecoder.decode(data: LargeSamples.jpeg(file, megapixels: megapixels, quality: 95))
                let otherFull = try other.withView { try fullRange.detect($0) }
                let otherShort = try other.withView { try shortRange.detect($0) }
                let otherMeshes = try other.withView { try landmarker.landmarks($0, for: referenceFull) }
                let noiseNME = zip(otherMeshes, referenceMeshes).map { MeshSamples.nme($0.points, $1.points) }.max() ?? 0
                // And the same decode with its first row and column left out: a shift of one full pixel (a 30th
                // of a detector input pixel at 24 MP).
                let back: (Point) -> Point = { Point(x: $0.x + 1, y: $0.y + 1) }
                let (shiftedFull, shiftedShort) = try full.pixels.withUnsafeBytes { bytes in
                    let shifted = try ImageView(pixels: UnsafeRawBufferPointer(rebasing: bytes[(full.bytesPerRow + 3)...]),
                                                width: full.width - 1, height: full.height - 1,
                                                bytesPerRow: full.bytesPerRow, pixelFormat: full.pixelFormat)
                    return (try fullRange.detect(shifted).map { $0.mapped(back) },
                            try shortRange.detect(shifted).map { $0.mapped(back) })
                }
                noise.append("| \(megapixels) MP | \(file) | \(referenceFull.count) | "
                    + String(format: "%.3f | %.3f | %.3f %% | %.3f | %.3f |", Self.worstIoU(referenceFull, otherFull).0,
                             Self.worstIoU(referenceShort, otherShort).0, 100 * noiseNME,
                             Self.worstIoU(referenceFull, shiftedFull).0, Self.worstIoU(referenceShort, shiftedShort).0))
                // An anti-aliased reference: the full decode box-filtered to a long side of about 2 x 192.
                let factor = max(longSide / 384, 1)
                let reduced = LargeSamples.boxReduced(full, factor: factor)
                let f = Double(factor)
                let box: (Point) -> Point = { Point(x: $0.x * f, y: $0.y * f) }
                let boxFull = try reduced.withView { try fullRange.detect($0) }.map { $0.mapped(box) }
                let boxShort = try reduced.withView { try shortRange.detect($0) }.map { $0.mapped(box) }
                var againstBox = "| \(megapixels) MP | \(file) | \(boxFull.count) |"
                for denominator in [1, 2, 4, 8] {
                    let scaled = try ImageDecoder.decodeScaled(data: data, minimumLongSide: (longSide + denominator - 1) / denominator)
                    let d = Double(denominator)
                    let up: (Point) -> Point = { Point(x: $0.x * d, y: $0.y * d) }
                    let a = try scaled.image.withView { try fullRange.detect($0) }.map { $0.mapped(up) }
                    let b = try scaled.image.withView { try shortRange.detect($0) }.map { $0.mapped(up) }
                    let (ia, ca) = Self.worstIoU(boxFull, a), (ib, cb) = Self.worstIoU(boxShort, b)
                    againstBox += String(format: " %.3f (%@) / %.3f (%@) |", ia, ca, ib, cb)
                }
                boxed.append(againstBox)
                for denominator in [1, 2, 4, 8] {
                    let minimumLongSide = (longSide + denominator - 1) / denominator
                    var scaled: ScaledImage!
                    let time = try Self.milliseconds {
                        scaled = try ImageDecoder.decodeScaled(data: data, minimumLongSide: minimumLongSide)
                    }
                    precondition(scaled.scaleDenominator == denominator)
                    let d = Double(denominator)
                    // Upright pictures: scaled pixel i covers full pixels i·d ..< (i + 1)·d. Not clamped: a box
                    // reaching past the picture's edge stays as the full decode reports it.
                    let up: (Point) -> Point = { Point(x: $0.x * d, y: $0.y * d) }
                    let fullRangeFaces = try scaled.image.withView { try fullRange.detect($0) }.map { $0.mapped(up) }
                    let shortRangeFaces = try scaled.image.withView { try shortRange.detect($0) }.map { $0.mapped(up) }
                    for (name, reference, faces, input) in [("full-range", referenceFull, fullRangeFaces, 192.0),
                                                            ("short-range", referenceShort, shortRangeFaces, 128.0)] {
                        for face in reference {
                            let match = faces.max { $0.boundingBox.iou(face.boundingBox) < $1.boundingBox.iou(face.boundingBox) }
                            let iou = match.map { $0.boundingBox.iou(face.boundingBox) } ?? 0
                            guard iou < 0.95 else { continue }
                            details.append("| \(megapixels) MP | \(file) | 1/\(denominator) | \(name) | "
                                + String(format: "%.0f | %.2f | %.2f | %.3f |",
                                         face.boundingBox.width * input / Double(longSide), face.score,
                                         match?.score ?? 0, iou))
                        }
                    }
                    // The mesh from the full decode's detections, scaled down (the mesh alone, not the detector).
                    let down = referenceFull.map { $0.mapped { Point(x: $0.x / d, y: $0.y / d) } }
                    let meshes = try scaled.image.withView { try landmarker.landmarks($0, for: down) }
                    var worstNME = 0.0, smallest = Double.infinity
                    for (mesh, reference) in zip(meshes, referenceMeshes) {
                        let points = mesh.points.map { Landmark(x: $0.x * Float(d), y: $0.y * Float(d), z: $0.z * Float(d)) }
                        worstNME = max(worstNME, MeshSamples.nme(points, reference.points))
                        smallest = min(smallest, mesh.region.width)
                    }
                    if meshes.count != referenceMeshes.count { worstNME = .infinity }
                    let (fr, frCount) = Self.worstIoU(referenceFull, fullRangeFaces)
                    let (sr, srCount) = Self.worstIoU(referenceShort, shortRangeFaces)
                    rows.append(Row(megapixels: megapixels, file: file, denominator: denominator,
                                    longSide: max(scaled.image.width, scaled.image.height), faces: referenceFull.count,
                                    fullRangeIoU: fr, fullRangeCount: frCount, shortRangeIoU: sr,
                                    shortRangeCount: srCount, meshNME: worstNME, smallestRegion: smallest,
                                    decodeMilliseconds: time))
                }
            }
        }
        var lines = ["| size | picture | scale | long side | ÷192 | ÷128 | full-range faces | worst IoU | short-range faces | worst IoU | worst mesh NME | smallest mesh region (px) | decode ms |",
                     "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in rows {
            lines.append("| \(r.megapixels) MP | \(r.file) | 1/\(r.denominator) | \(r.longSide) | "
                + String(format: "%.1f | %.1f | ", Double(r.longSide) / 192, Double(r.longSide) / 128)
                + "\(r.fullRangeCount) | " + String(format: "%.3f", r.fullRangeIoU) + " | \(r.shortRangeCount) | "
                + String(format: "%.3f | %.3f %% | %.0f | %.1f |", r.shortRangeIoU, 100 * r.meshNME,
                         r.smallestRegion, r.decodeMilliseconds))
        }
        lines.append("")
        lines.append("Noise floor: quality 95 against quality 90, both decoded in full; and the full decode shifted by one pixel.")
        lines.append("")
        lines.append("| size | picture | faces | q95: full-range worst IoU | q95: short-range worst IoU | q95: worst mesh NME | shift: full-range worst IoU | shift: short-range worst IoU |")
        lines.append("|---|---|---|---|---|---|---|---|")
        lines += noise
        lines.append("")
        lines.append("Against an anti-aliased reference (the full decode box-filtered to a long side of about 384): worst IoU full-range / short-range (faces found), per decode scale.")
        lines.append("")
        lines.append("| size | picture | faces | 1/1 | 1/2 | 1/4 | 1/8 |")
        lines.append("|---|---|---|---|---|---|---|")
        lines += boxed
        lines.append("")
        lines.append("Faces below IoU 0.95: box width in detector-input pixels, score in the full decode, score of the best match.")
        lines.append("")
        lines.append("| size | picture | scale | detector | box (input px) | score | match score | IoU |")
        lines.append("|---|---|---|---|---|---|---|---|")
        lines += details
        print(lines.joined(separator: "\n"))
    }
}
