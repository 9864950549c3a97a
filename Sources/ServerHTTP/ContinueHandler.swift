import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue` as soon as the head arrives, unless the
/// declared body is over the limit (then the 413 comes instead, and the client need not send it):
/// without it, a client such as curl waits a second before sending a large body.
final class ContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart
    let maxBodyBytes: Int

    init(maxBodyBytes: Int) { self.maxBodyBytes = maxBodyBytes }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data), head.headerFields[.expect]?.lowercased() == "100-continue",
            (head.headerFields[.contentLength].flatMap(Int.init) ?? 0) <= maxBodyBytes
        {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPTypes.HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }
}
