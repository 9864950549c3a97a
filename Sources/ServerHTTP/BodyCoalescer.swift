import NIOCore
import NIOHTTPTypes

/// Joins the body parts that one read of the socket produced into one part before they cross
/// into Swift concurrency: a body sent in 1-byte chunks arrives as a part per chunk from the
/// parser, and each part costs an async hand-off, which would dominate (about 1 µs each). What it
/// holds is at most one read's bytes.
final class BodyCoalescer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    private var pending: ByteBuffer?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .body(var bytes):
            if pending == nil {
                pending = bytes
            } else {
                pending!.writeBuffer(&bytes)
            }
        case .head, .end:
            flush(context)
            context.fireChannelRead(data)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flush(context)
        context.fireChannelReadComplete()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        flush(context)
    }

    private func flush(_ context: ChannelHandlerContext) {
        guard let bytes = pending else { return }
        pending = nil
        context.fireChannelRead(wrapInboundOut(.body(bytes)))
    }
}
