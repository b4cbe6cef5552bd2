#if Server
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes the connection once a response marked `Connection: close` is written.
///
/// Hummingbird 2 closes a connection after a response only when the request asked for it; otherwise it reads
/// and throws away the rest of an unread body to keep the connection. After a 413 (or a 408 for a body too
/// slow), that would let a client stream any amount of data into the server: this handler, placed after the
/// HTTP codec, ends the connection instead (measured with a 200 MB body: 0.1 MB read after the answer).
final class CloseAfterResponseHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var closeAfterEnd = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.status.code >= 200, head.headerFields[.connection]?.lowercased() == "close" { closeAfterEnd = true }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard closeAfterEnd else {
                context.write(data, promise: promise)
                return
            }
            closeAfterEnd = false
            let written = promise ?? context.eventLoop.makePromise()
            context.writeAndFlush(data, promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
#endif
