import Foundation
import NIOCore
import SkillParser

/// Open connections per client address, capped: one address cannot take every file descriptor
/// (a slow client's connections cost no thread, but each holds one until its timeout).
final class ConnectionsPerClient: Sendable {
    let limit: Int
    private let open = Locked([String: Int]())

    init(limit: Int) { self.limit = limit }

    /// Counts a connection from `address`; `false` (and not counted) when it is at the cap.
    func admit(_ address: String) -> Bool {
        open.withLock { open in
            guard open[address, default: 0] < limit else { return false }
            open[address, default: 0] += 1
            return true
        }
    }

    /// A connection from `address` closed.
    func release(_ address: String) {
        open.withLock { open in
            if let count = open[address], count > 1 { open[address] = count - 1 } else { open[address] = nil }
        }
    }

    /// The handler, one per connection, that applies the cap: a connection over it is closed at
    /// once, before a byte is read.
    func handler() -> ClientCapHandler { ClientCapHandler(connections: self) }
}

/// Counts its connection in ``ConnectionsPerClient`` while it is open.
final class ClientCapHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any
    private let connections: ConnectionsPerClient
    private var address: String?

    init(connections: ConnectionsPerClient) { self.connections = connections }

    func handlerAdded(context: ChannelHandlerContext) {
        let client = context.channel.remoteAddress?.ipAddress ?? ""
        if connections.admit(client) {
            address = client
        } else {
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let address { connections.release(address) }
        address = nil
    }
}
