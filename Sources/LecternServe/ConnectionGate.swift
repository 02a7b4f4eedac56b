import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// The first handler of every connection: counts it against ``ConnectionLimits``; a connection
/// over a limit is answered `503 Service Unavailable` at once and closed, and nothing it sends is
/// read as a request.
final class ConnectionGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let limits: ConnectionLimits
    let logger: Logger
    private var refused = false

    init(limits: ConnectionLimits, logger: Logger) {
        self.limits = limits
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let client = context.channel.remoteAddress?.ipAddress ?? "unknown"
        guard limits.open(client) else {
            refused = true
            logger.debug("connection refused: over a limit", metadata: ["client": "\(client)", "connections": "\(limits.count)"])
            let text = "the service holds as many connections as it may (\(limits.total) in all, \(limits.perClient) from one address); try again later\n"
            let answer = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(text.utf8.count)\r\n"
                + "Retry-After: 5\r\nConnection: close\r\n\r\n" + text
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: answer))).whenComplete { _ in
                channel.close(promise: nil)
            }
            return
        }
        let limits = limits
        context.channel.closeFuture.whenComplete { _ in limits.close(client) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A refused connection's bytes are never a request.
        guard !refused else { return }
        context.fireChannelRead(data)
    }
}

/// Hummingbird's HTTP/1 connection with a ``ConnectionGate`` in front of it.
struct GatedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let limits: ConnectionLimits
    let logger: Logger

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionGate(limits: limits, logger: self.logger))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
