import Foundation

/// `HOST:PORT` or `[V6]:PORT`: where an HTTP server listens (`skill serve --http`, `skill-http`).
public struct ListenAddress: Hashable, Sendable {
    public var host: String
    public var port: Int

    /// The address `text` names; `nil` when it is not `HOST:PORT` with a port of 0 to 65535 (an
    /// IPv6 host in brackets).
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) } else if host.contains(":") { return nil }
        guard !host.isEmpty else { return nil }
        self.host = host
        self.port = port
    }
}
