import BlazeNPY
import BlazeTestSupport
import Foundation
import Testing

/// The legacy Face Mesh goldens (Tests/Goldens/mediapipe/face_mesh.json) are usable: every picture rebuilds
/// byte for byte from its recipe, every face has the landmark count of its mode, and the stored model inputs
/// are what the json says MediaPipe fed the landmark model.
@Suite("Face mesh goldens")
struct FaceMeshGoldensTests {
    static let pictureNames: [String] = (try? FaceMeshGoldens.load().images.keys.sorted()) ?? []

    @Test("the goldens load and cover both modes and the pictures the tests rely on")
    func loads() throws {
        let goldens = try FaceMeshGoldens.load()
        #expect(Set(goldens.results.keys) == Set(FaceMeshGoldens.Mode.allCases.map(\.rawValue)))
        for name in ["astronaut", "astronaut_pair_512x512", "astronaut_rot90_k1", "astronaut_group_1280x720"] {
            #expect(goldens.images[name] != nil, "no picture \(name)")
        }
        for mode in FaceMeshGoldens.Mode.allCases {
            #expect(Set(goldens.results[mode.rawValue]?.keys.map { $0 } ?? []) == Set(goldens.images.keys))
        }
    }

    @Test("every face-mesh recipe rebuilds MediaPipe's picture byte for byte", arguments: pictureNames)
    func recipe(_ name: String) throws {
        let spec = try #require(try FaceMeshGoldens.load().images[name])
        let image = try FaceMeshGoldens.picture(name)
        #expect(image.width == spec.width && image.height == spec.height)
        #expect(SHA256.hex(image.pixels) == spec.rgbSha256, "\(name): the rebuilt RGB bytes differ from MediaPipe's")
    }

    @Test("faces: landmark counts by mode, landmarks exactly when presence > 0.5, six keypoints")
    func faces() throws {
        let goldens = try FaceMeshGoldens.load()
        for mode in FaceMeshGoldens.Mode.allCases {
            for name in goldens.images.keys {
                for face in try goldens.result(mode, name).faces {
                    #expect(face.detection.keypoints.count == 6 && face.detection.keypoints.allSatisfy { $0.count == 2 })
                    #expect((face.landmarks != nil) == (face.presence > 0.5), "\(mode) \(name): presence \(face.presence)")
                    #expect((face.landmarks != nil) == (face.roiFromLandmarks != nil))
                    if let landmarks = face.landmarks {
                        #expect(landmarks.count == mode.landmarkCount && landmarks.allSatisfy { $0.count == 3 })
                    }
                }
            }
        }
        // One face on the astronaut in both modes, with its landmarks inside its ROI's bounding square.
        for mode in FaceMeshGoldens.Mode.allCases {
            let faces = try goldens.result(mode, "astronaut").faces
            #expect(faces.count == 1)
            let roi = try #require(faces.first?.roi)
            let landmarks = try #require(faces.first?.landmarks)
            let reach = max(roi.width, roi.height) * 0.75  // half the diagonal bound of a rotated square
            #expect(landmarks.allSatisfy { abs($0[0] - roi.xCenter) <= reach && abs($0[1] - roi.yCenter) <= reach })
        }
    }

    /// Faces whose model input was stored as uint8 .npy.
    static let storedInputs: [String] = {
        guard let goldens = try? FaceMeshGoldens.load() else { return [] }
        return Set(goldens.results.values.flatMap { $0.values.flatMap { $0.faces.compactMap(\.inputTensor.npy) } }).sorted()
    }()

    @Test("a stored model input, as Float(u8) * (1 / 255), has the float32 sha256 of the json", arguments: storedInputs)
    func storedInput(_ file: String) throws {
        let goldens = try FaceMeshGoldens.load()
        let array = try NPYArray(path: FaceMeshGoldens.directory.appendingPathComponent(file).path)
        #expect(array.dtype == .uint8 && array.shape == [192, 192, 3])
        let scale = Float(1) / Float(255)
        let values = array.bytes.map { Float($0) * scale }
        let bytes = values.withUnsafeBytes { [UInt8]($0) }  // little-endian on every supported platform
        let faces = goldens.results.values.flatMap { $0.values.flatMap(\.faces) }.filter { $0.inputTensor.npy == file }
        #expect(!faces.isEmpty)
        for face in faces {
            #expect(face.inputTensor.u8Exact)
            #expect(SHA256.hex(bytes) == face.inputTensor.sha256Float32, "\(file)")
        }
    }
}
