/// An MCP revision. The dated strings sort in release order.
public struct ProtocolVersion: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let v2024_11_05 = ProtocolVersion(rawValue: "2024-11-05")
    public static let v2025_03_26 = ProtocolVersion(rawValue: "2025-03-26")
    public static let v2025_06_18 = ProtocolVersion(rawValue: "2025-06-18")
    public static let v2025_11_25 = ProtocolVersion(rawValue: "2025-11-25")
    /// The stateless revision: no `initialize`, the version in every request's `_meta`.
    public static let v2026_07_28 = ProtocolVersion(rawValue: "2026-07-28")

    /// Revisions reached through `initialize`, newest first.
    public static let handshake: [ProtocolVersion] = [.v2025_11_25, .v2025_06_18, .v2025_03_26, .v2024_11_05]
    /// Revisions served per request (`_meta`), newest first.
    public static let modern: [ProtocolVersion] = [.v2026_07_28]
    /// Everything this server speaks, newest first.
    public static let supported: [ProtocolVersion] = modern + handshake

    public static func < (a: ProtocolVersion, b: ProtocolVersion) -> Bool { a.rawValue < b.rawValue }

    /// Per-request metadata instead of a session.
    public var isModern: Bool { self >= .v2026_07_28 }
    /// Tool `title`, `outputSchema` and `structuredContent` (2025-06-18 on).
    public var hasStructuredTools: Bool { self >= .v2025_06_18 }
    /// Tool `annotations` and the progress `message` (2025-03-26 on).
    public var hasAnnotations: Bool { self >= .v2025_03_26 }
    /// JSON-RPC batches: only 2025-03-26 has them on stdio.
    public var acceptsBatches: Bool { self == .v2025_03_26 }
    /// `ping` was removed in 2026-07-28.
    public var hasPing: Bool { !isModern }
    /// The code for an unknown resource: -32002 up to 2025-11-25, -32602 from 2026-07-28.
    public var unknownResourceCode: ErrorCode { isModern ? .invalidParams : .resourceNotFound }
}

/// The `_meta` keys of 2026-07-28.
public enum MetaKey {
    public static let protocolVersion = "io.modelcontextprotocol/protocolVersion"
    public static let clientInfo = "io.modelcontextprotocol/clientInfo"
    public static let clientCapabilities = "io.modelcontextprotocol/clientCapabilities"
    public static let serverInfo = "io.modelcontextprotocol/serverInfo"
    public static let progressToken = "progressToken"
}
