import Foundation
import SkillServer

/// Who may talk to the HTTP endpoint: the `Origin` and `Host` checks against DNS rebinding
/// (403) and the optional bearer token (401).
public struct HTTPAccessPolicy: Sendable {
    /// Host names a browser page may come from (`Origin`) and the server may be reached as
    /// (`Host`), lowercased, without brackets or ports.
    public var allowedHosts: Set<String>
    /// Whether the `Host` header is checked: only when bound to a loopback address, where any
    /// other name means a rebound DNS name.
    public var checksHost: Bool
    /// The bearer token every request must carry, if any.
    public var token: String?

    /// The names of the loopback interface.
    public static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "::1"]

    /// The policy for a server bound to `host`: loopback names and `host` itself are allowed.
    public init(boundTo host: String, token: String?) {
        let name = Self.bare(host)
        allowedHosts = Self.loopbackNames.union(["0.0.0.0", "::"].contains(name) ? [] : [name])
        checksHost = Self.isLoopback(host)
        self.token = token
    }

    /// Whether `host` is a loopback address or name (`localhost`, `127.0.0.0/8`, `::1`).
    public static func isLoopback(_ host: String) -> Bool {
        let name = bare(host)
        return loopbackNames.contains(name) || name.hasPrefix("127.")
    }

    /// Why the server must not start bound to `host`, or `nil`: off loopback, anyone on the
    /// network may connect, so a token is required unless `insecure` (`--insecure-no-auth`) says
    /// the network is trusted.
    public static func bindRefusal(host: String, hasToken: Bool, insecure: Bool) -> String? {
        guard !isLoopback(host), !hasToken, !insecure else { return nil }
        return
            "--http \(host) is reachable from other machines: give --token-file PATH (a file holding a secret token, mode 600), or bind to 127.0.0.1, or pass --insecure-no-auth to serve anyone who can reach it"
    }

    /// Why a token file with permission bits `mode` must not be used, or `nil`: a token that
    /// other users of the machine can read is no secret.
    public static func tokenFileRefusal(path: String, mode: UInt16) -> String? {
        guard mode & 0o077 != 0 else { return nil }
        return "--token-file \(path) is readable by other users (mode \(String(mode & 0o777, radix: 8))): run chmod 600 \(path)"
    }

    /// `nil` when `request` may proceed, else the refusal to send.
    public func refusal(for request: HTTPRequest) -> HTTPResponse? {
        if let origin = request.headers["Origin"] {
            guard let host = Self.originHost(origin), allowedHosts.contains(host) else {
                return Self.error(403, "Forbidden: Origin \(origin) is not allowed")
            }
        }
        if checksHost, let host = request.headers["Host"] {
            guard allowedHosts.contains(Self.bare(Self.stripPort(host))) else {
                return Self.error(403, "Forbidden: Host \(host) is not this server")
            }
        }
        if let token {
            let given = request.headers["Authorization"] ?? ""
            guard given.count > 7, given.prefix(7).lowercased() == "bearer ", Self.equalInConstantTime(String(given.dropFirst(7)), token)
            else {
                var headers = HTTPHeaders()
                headers.add("WWW-Authenticate", "Bearer")
                return Self.error(
                    401, given.isEmpty ? "Unauthorized: send Authorization: Bearer TOKEN" : "Unauthorized: wrong bearer token",
                    headers: headers)
            }
        }
        return nil
    }

    /// A refusal whose body is a JSON-RPC error without an id (the specification's form).
    static func error(_ status: Int, _ message: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        .json(status, OutgoingMessage.error(id: nil, ResponseError(.invalidRequest, message)), headers: headers)
    }

    /// The host of an origin `scheme://host[:port]`, lowercased and unbracketed; `nil` for
    /// `null` or anything that is not an origin.
    static func originHost(_ origin: String) -> String? {
        guard let range = origin.range(of: "://") else { return nil }
        let authority = origin[range.upperBound...]
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@") else { return nil }
        return bare(stripPort(String(authority)))
    }

    /// `host:port`, `[v6]:port` or `[v6]` without the port.
    static func stripPort(_ authority: String) -> String {
        if authority.hasPrefix("[") { return authority.firstIndex(of: "]").map { String(authority[...$0]) } ?? authority }
        if authority.filter({ $0 == ":" }).count == 1, let colon = authority.firstIndex(of: ":") { return String(authority[..<colon]) }
        return authority
    }

    /// Lowercased, without IPv6 brackets.
    static func bare(_ host: String) -> String {
        var h = host.lowercased()
        if h.hasPrefix("["), h.hasSuffix("]") { h = String(h.dropFirst().dropLast()) }
        return h
    }

    /// Compares every byte whatever differs first, so the time taken does not reveal the token.
    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var diff = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) { diff |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0) }
        return diff == 0
    }
}
