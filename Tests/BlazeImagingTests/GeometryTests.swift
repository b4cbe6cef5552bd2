import BlazeImaging
import Foundation
import Testing

@Suite("Geometry")
struct GeometryTests {
    @Test("IoU: overlap, containment, touching, empty and NaN boxes")
    func iou() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.iou(a) == 1)
        #expect(a.iou(Rect(x: 5, y: 0, width: 10, height: 10)) == 50.0 / 150.0)
        #expect(a.iou(Rect(x: 2, y: 2, width: 5, height: 5)) == 25.0 / 100.0)
        #expect(a.iou(Rect(x: 10, y: 0, width: 10, height: 10)) == 0)   // touching
        #expect(a.iou(Rect(x: 20, y: 20, width: 1, height: 1)) == 0)
        #expect(a.iou(Rect(x: 2, y: 2, width: -1, height: 5)) == 0)     // empty
        #expect(a.iou(Rect(x: .nan, y: 0, width: 5, height: 5)) == 0)
        let f: Float = intersectionOverUnion((0, 0, 1, 1), (0.5, 0, 1.5, 1))
        #expect(f == Float(0.5) / Float(1.5))
    }

    @Test("RotatedRect maps normalized points, corners and its bounding box")
    func rotatedRect() {
        let r = RotatedRect(center: Point(x: 100, y: 50), width: 40, height: 20)
        #expect(r.point(u: 0, v: 0) == Point(x: 80, y: 40))
        #expect(r.point(u: 1, v: 1) == Point(x: 120, y: 60))
        #expect(r.boundingBox == Rect(x: 80, y: 40, width: 40, height: 20))
        // A quarter turn clockwise on screen: the rectangle's x axis points down.
        let q = RotatedRect(center: Point(x: 100, y: 50), width: 40, height: 20, rotation: .pi / 2)
        let p = q.point(u: 1, v: 0.5)
        #expect(abs(p.x - 100) < 1e-9 && abs(p.y - 70) < 1e-9)
        let box = q.boundingBox
        #expect(abs(box.width - 20) < 1e-9 && abs(box.height - 40) < 1e-9)
        for (u, v) in [(0.0, 0.0), (0.3, 0.9), (1.0, 0.25)] {
            let t = q.normalizedToImage.apply(Point(x: u, y: v)), d = q.point(u: u, v: v)
            #expect(abs(t.x - d.x) < 1e-9 && abs(t.y - d.y) < 1e-9)
        }
        #expect(!RotatedRect(center: Point(x: 0, y: 0), width: 0, height: 1).isValid)
        #expect(!RotatedRect(center: Point(x: .infinity, y: 0), width: 1, height: 1).isValid)
    }

    @Test("AffineTransform composes and inverts")
    func affine() throws {
        let t = AffineTransform(a: 2, b: 1, c: -1, d: 3, tx: 5, ty: -7)
        let s = AffineTransform.scale(0.5, 4).concatenated(after: .translation(1, 2))
        let p = Point(x: 3, y: -4)
        let composed = t.concatenated(after: s).apply(p), stepwise = t.apply(s.apply(p))
        #expect(abs(composed.x - stepwise.x) < 1e-12 && abs(composed.y - stepwise.y) < 1e-12)
        let back = try #require(t.inverted).apply(t.apply(p))
        #expect(abs(back.x - p.x) < 1e-12 && abs(back.y - p.y) < 1e-12)
        #expect(AffineTransform.scale(0, 1).inverted == nil)
    }
}
