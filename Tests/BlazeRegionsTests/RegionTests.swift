import BlazeImaging
import BlazeRegions
import Foundation
import Testing

private struct P: PlanarPoint { var x: Float; var y: Float }

@Suite("BlazeRegions: MediaPipe's region maths")
struct RegionTests {
    @Test("a level detection: the box's centre, squared on the long side, scaled by 1.5, rotation 0")
    func levelDetection() {
        let region = RegionRecipe.face.region(box: Rect(x: 100, y: 50, width: 40, height: 60),
                                              rotationFrom: Point(x: 110, y: 70), to: Point(x: 130, y: 70),
                                              imageWidth: 400, imageHeight: 200)
        let pixels = region.pixels(imageWidth: 400, imageHeight: 200)
        #expect(abs(pixels.center.x - 120) < 1e-4 && abs(pixels.center.y - 80) < 1e-4)
        #expect(abs(pixels.width - 90) < 1e-3 && abs(pixels.height - 90) < 1e-3)
        #expect(region.rotation == 0)
    }

    @Test("eyes on a vertical line turn the region by a quarter turn; the angle stays in [-π, π)")
    func turnedDetection() {
        let region = RegionRecipe.face.region(box: Rect(x: 0, y: 0, width: 10, height: 10),
                                              rotationFrom: Point(x: 5, y: 2), to: Point(x: 5, y: 8),
                                              imageWidth: 10, imageHeight: 10)
        #expect(abs(region.rotation - Float.pi / 2) < 1e-6)
        #expect(abs(RegionRecipe.normalizeRadians(4) - Float(4 - 2 * Double.pi)) < 1e-6)
        #expect(abs(RegionRecipe.normalizeRadians(3 * Float.pi / 2) + Float.pi / 2) < 1e-6)
    }

    @Test("regions from points: nil when a rotation index is missing; the box of all points otherwise")
    func fromPoints() throws {
        let points = [P(x: 10, y: 10), P(x: 30, y: 10), P(x: 20, y: 40)]
        #expect(RegionRecipe.face.region(points: points, rotationFrom: 0, to: 3, imageWidth: 100, imageHeight: 100) == nil)
        let region = try #require(RegionRecipe(scale: 1).region(points: points, rotationFrom: 0, to: 1,
                                                                imageWidth: 100, imageHeight: 100))
        let pixels = region.pixels(imageWidth: 100, imageHeight: 100)
        #expect(abs(pixels.center.x - 20) < 1e-4 && abs(pixels.center.y - 25) < 1e-4)
        #expect(abs(pixels.width - 30) < 1e-4 && abs(pixels.height - 30) < 1e-4)
    }

    @Test("projection: the input's centre is the region's centre; a quarter turn maps the input's right to down")
    func projection() {
        let region = NormalizedRegion(xCenter: 0.5, yCenter: 0.25, width: 0.2, height: 0.4, rotation: .pi / 2)
        let project = RegionProjection(region, imageWidth: 200, imageHeight: 100)
        let centre = project(x: 0.5, y: 0.5, z: 0.5)
        #expect(abs(centre.x - 100) < 1e-4 && abs(centre.y - 25) < 1e-4 && abs(centre.z - 20) < 1e-4)
        let right = project(x: 1, y: 0.5, z: 0)
        #expect(abs(right.x - 100) < 1e-3 && abs(right.y - 45) < 1e-3)
    }

    @Test("MediaPipe's rule is IoU above 0.5; the tracker's also takes a centre inside, and is not symmetric")
    func overlapRules() {
        let big = Rect(x: 0, y: 0, width: 100, height: 100), small = Rect(x: 40, y: 40, width: 20, height: 20)
        #expect(!OverlapRule.mediaPipe.matches(small, big))
        #expect(OverlapRule.overlapOrCenterInside.matches(small, big))
        #expect(!OverlapRule.overlapOrCenterInside.matches(Rect(x: 0, y: 0, width: 10, height: 10),
                                                         Rect(x: 20, y: 0, width: 10, height: 10)))
        #expect(OverlapRule.mediaPipe.matches(big, Rect(x: 10, y: 0, width: 100, height: 100)))
    }

    @Test("association: a later region removes the earlier ones it overlaps and takes the end of the list")
    func association() {
        func region(_ x: Float) -> NormalizedRegion {
            NormalizedRegion(xCenter: x, yCenter: 0.5, width: 0.2, height: 0.2, rotation: 0)
        }
        var regions = [(region(0.2), "detected A"), (region(0.7), "detected B"), (region(0.21), "followed A")]
        RegionAssociation.associate(&regions) { $0.0 }
        #expect(regions.map(\.1) == ["detected B", "followed A"])
    }
}
