#if Server
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// `blazeface serve`: the face pipelines over HTTP.
///
/// Start-up loads every worker's models (a missing model ends it before the server listens), then listens;
/// SIGTERM or SIGINT stops accepting connections, lets the requests in flight finish (at most
/// `ServerConfiguration.shutdownTimeout`), stops the workers, and returns. Documentation/Server.md has the
/// endpoints, limits and metrics.
public enum FaceServer {
    /// Runs the server until SIGTERM or SIGINT.
    /// - Parameters:
    ///   - configuration: where to listen, the workers, the limits.
    ///   - logLevel: the log level (`info` logs one line per request).
    ///   - onListening: called once the server listens, with the port it is bound to.
    /// - Throws: `ServerError.invalidConfiguration` for a configuration with `problems`; the pipelines'
    ///   errors when a model cannot be loaded; the system's when the address cannot be bound.
    public static func run(_ configuration: ServerConfiguration, logLevel: Logger.Level = .info,
                           onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        guard configuration.problems.isEmpty else { throw ServerError.invalidConfiguration(configuration.problems) }
        var logger = Logger(label: "blazeface.serve")
        logger.logLevel = logLevel
        let metrics = ServerMetrics()
        let service = try FaceService(configuration: configuration) { waiting, running in
            metrics.queue(waiting: waiting, running: running)
        }
        let app = application(service: service, metrics: metrics, logger: logger) { channel in
            await onListening(channel.localAddress?.port ?? configuration.port)
        }
        var group = ServiceGroupConfiguration(services: [WorkerShutdown(service: service), app],
                                              gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = configuration.shutdownTimeout
        group.maximumCancellationDuration = .seconds(5)
        try await ServiceGroup(configuration: group).run()
        logger.info("stopped")
    }

    /// The Hummingbird application over a service (what `run` starts; the tests start it themselves).
    static func application(service: FaceService, metrics: ServerMetrics, logger: Logger,
                            onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in })
        -> some ApplicationProtocol {
        let configuration = service.configuration
        return Application(
            router: Routes.router(service: service, metrics: metrics),
            server: .http1(configuration: .init(
                additionalChannelHandlers: [CloseAfterResponseHandler()],
                idleTimeout: TimeAmount.nanoseconds(Int64(configuration.idleTimeout.timeInterval * 1e9)),
                httpDecoderConfiguration: .init(maxHeaderFieldSize: 16 << 10, maxHeaderListSize: 32 << 10,
                                                maxHeaderFieldCount: 100))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                 serverName: "blazeface",
                                 availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections)),
            onServerRunning: onServerRunning,
            logger: logger)
    }
}

/// Why the server did not start.
public enum ServerError: Error, Equatable, CustomStringConvertible {
    /// The configuration cannot work: one sentence per problem.
    case invalidConfiguration([String])

    /// The problems, joined.
    public var description: String {
        switch self {
        case .invalidConfiguration(let problems): return "invalid server configuration: " + problems.joined(separator: "; ")
        }
    }
}

/// Stops the workers once the HTTP server has finished (a service group stops its services in reverse order:
/// this one is listed first, so it stops last).
struct WorkerShutdown: Service {
    let service: FaceService

    func run() async throws {
        try? await gracefulShutdown()
        service.shutdown(timeout: service.configuration.shutdownTimeout)
    }
}
#endif
