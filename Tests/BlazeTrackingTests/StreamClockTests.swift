import BlazeTracking
import Testing

@Suite("StreamClock: container times made strictly increasing")
struct StreamClockTests {
    @Test("good times pass through; the first is the origin")
    func increasing() {
        var clock = StreamClock()
        #expect(clock.origin == 0)
        #expect([2.0, 2.04, 2.08].map { clock.time(for: $0) } == [2.0, 2.04, 2.08])
        #expect(clock.origin == 2.0)
    }

    @Test("a repeated, earlier or missing time becomes 1 ms after the previous frame's")
    func damaged() {
        var clock = StreamClock()
        let times = [1.0, 1.0, 0.5, .nan, .infinity, 1.1].map { clock.time(for: $0) }
        let expected = [1.0, 1.001, 1.002, 1.003, 1.004, 1.1]
        #expect(zip(times, expected).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("a stream whose first time is missing starts at 1 ms")
    func missingFirst() {
        var clock = StreamClock()
        #expect(clock.time(for: .nan) == 0.001)
        #expect(clock.origin == 0.001)
    }
}
