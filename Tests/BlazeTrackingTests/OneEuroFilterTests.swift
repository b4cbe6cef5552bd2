import BlazeTracking
import Foundation
import Testing

@Suite("OneEuroFilter")
struct OneEuroFilterTests {
    @Test("the first value passes unchanged; a constant stays constant")
    func constant() {
        var filter = OneEuroFilter()
        #expect(filter.filter(5, time: 0) == 5)
        for index in 1...10 { #expect(filter.filter(5, time: Double(index) / 30) == 5) }
    }

    @Test("a still signal is smoothed hard: MediaPipe's alpha of about 0.01 at 30 Hz")
    func stillAlpha() {
        var filter = OneEuroFilter()
        _ = filter.filter(0, time: 0)
        // A 1-unit step with value scale 1e-6 (speed nearly 0): the output moves by alpha ≈ 0.0104.
        let out = filter.filter(1, time: 1.0 / 30, valueScale: 1e-6)
        #expect(abs(out - 0.0104) < 0.0005, "\(out)")
    }

    @Test("a fast-moving signal follows closely (beta raises the cut-off)")
    func movingFollows() {
        var filter = OneEuroFilter()
        var out = 0.0
        for index in 0...30 { out = filter.filter(Double(index) * 10, time: Double(index) / 30, valueScale: 1.0 / 100) }
        #expect(abs(out - 300) < 10, "\(out)")
    }

    @Test("value scale makes it size-independent: k times the signal with 1/k the scale gives k times the output")
    func scaleInvariance() {
        var a = OneEuroFilter(), b = OneEuroFilter()
        for index in 0...20 {
            let v = sin(Double(index) / 3) * 10
            let x = a.filter(v, time: Double(index) / 30, valueScale: 1.0 / 50)
            let y = b.filter(4 * v, time: Double(index) / 30, valueScale: 1.0 / 200)
            #expect(abs(4 * x - y) < 1e-9)
        }
    }

    @Test("a timestamp that does not increase returns the value and leaves the state alone")
    func nonIncreasingTime() {
        var filter = OneEuroFilter()
        _ = filter.filter(0, time: 1)
        #expect(filter.filter(7, time: 1) == 7)
        #expect(filter.filter(7, time: 0.5) == 7)
        let next = filter.filter(0, time: 1 + 1.0 / 30)
        #expect(next == 0)   // still 0: the ignored 7s did not enter the state
    }
}
