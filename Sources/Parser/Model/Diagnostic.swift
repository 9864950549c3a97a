/// How serious a ``Diagnostic`` is.
public enum Severity: String, Codable, Sendable {
    case note, warning, error
}

/// A stable rule identifier such as `frontmatter.description.cut`; documented in docs/diagnostics.md.
public struct RuleID: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A problem found in a skill's content. Content problems never stop parsing: they are collected
/// beside a best-effort model.
public struct Diagnostic: Codable, Hashable, Sendable {
    public var severity: Severity
    public var id: RuleID
    public var message: String
    /// The file, relative to the root the skill was found under.
    public var path: String
    /// 1-based line in the file (frontmatter counted).
    public var line: Int
    /// 1-based column, counted in UTF-8 bytes.
    public var column: Int

    public init(_ severity: Severity, _ id: RuleID, _ message: String, path: String, line: Int, column: Int = 1) {
        self.severity = severity
        self.id = id
        self.message = message
        self.path = path
        self.line = line
        self.column = column
    }

    /// The line editors and CI understand: `path:line:col: severity: message [rule-id]`.
    public var formatted: String {
        "\(path):\(line):\(column): \(severity.rawValue): \(message) [\(id)]"
    }
}
