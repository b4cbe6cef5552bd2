#if Server
import Hummingbird
import Prometheus

/// The server's Prometheus metrics (swift-prometheus's registry, text format at `GET /metrics`):
///
/// - `blazeface_http_requests_total{endpoint,status}`: requests answered;
/// - `blazeface_http_request_duration_seconds{endpoint}`: their latency, from the head to the answer;
/// - `blazeface_http_in_flight_requests`: requests being handled (their bodies read, waiting or running);
/// - `blazeface_queue_waiting_requests` and `blazeface_queue_running_requests`: the worker pool's queue;
/// - `blazeface_decode_duration_seconds` and `blazeface_inference_duration_seconds{endpoint}`: where a
///   worker's time goes.
///
/// `endpoint` is the route's pattern (`/v1/detect`; `NotFound` for any other path), so the labels stay few.
final class ServerMetrics: Sendable {
    /// The registry `/metrics` renders.
    let registry = PrometheusCollectorRegistry()
    private let inFlight: Gauge
    private let waiting: Gauge
    private let running: Gauge
    private let decode: DurationHistogram

    /// Latency buckets from 1 ms to 30 s.
    static let buckets: [Duration] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 30_000]
        .map { .milliseconds($0) }

    init() {
        inFlight = registry.makeGauge(descriptor: Self.name("http_in_flight", "requests", "Requests being handled"))
        waiting = registry.makeGauge(
            descriptor: Self.name("queue_waiting", "requests", "Requests waiting for a pipeline worker"))
        running = registry.makeGauge(descriptor: Self.name("queue_running", "requests", "Requests on a pipeline worker"))
        decode = registry.makeDurationHistogram(
            descriptor: Self.name("decode_duration", "seconds", "Time to decode a request's picture"), buckets: Self.buckets)
    }

    /// A metric's name parts (the descriptor type is not `Sendable`: made when needed).
    private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "blazeface", metricName: metric, unitName: unit, helpText: help)
    }

    /// Records an answered request.
    func record(endpoint: String, status: Int, duration: Duration) {
        registry.makeCounter(descriptor: Self.name("http_requests", "total", "Requests answered, by endpoint and status"),
                             labels: [("endpoint", endpoint), ("status", String(status))]).increment()
        registry.makeDurationHistogram(
            descriptor: Self.name("http_request_duration", "seconds", "Time from a request's head to its answer"),
            labels: [("endpoint", endpoint)], buckets: Self.buckets).record(duration)
    }

    /// Records a worker's decode and pipeline times.
    func record(endpoint: String, decodeSeconds: Double, inferenceSeconds: Double) {
        decode.record(.seconds(decodeSeconds))
        registry.makeDurationHistogram(
            descriptor: Self.name("inference_duration", "seconds", "Time in a pipeline, by endpoint"),
            labels: [("endpoint", endpoint)], buckets: Self.buckets).record(.seconds(inferenceSeconds))
    }

    /// Sets the queue gauges.
    func queue(waiting: Int, running: Int) {
        self.waiting.set(Double(waiting))
        self.running.set(Double(running))
    }

    /// Counts a request in or out of the handlers.
    func inFlight(_ change: Int) {
        if change > 0 { inFlight.increment(by: Double(change)) } else { inFlight.decrement(by: Double(-change)) }
    }

    /// The text exposition format.
    func render() -> [UInt8] {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return bytes
    }
}
#endif
