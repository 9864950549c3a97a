/// The kind of a knowledge ``Entry``: an open vocabulary, so new kinds do not break old clients.
public struct EntryKind: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The skill itself: name, description, frontmatter.
    public static let skill = EntryKind(rawValue: "skill")
    /// Any heading section.
    public static let section = EntryKind(rawValue: "section")
    /// A recommended practice.
    public static let pattern = EntryKind(rawValue: "pattern")
    /// A practice to avoid, with why and its fix.
    public static let antiPattern = EntryKind(rawValue: "anti-pattern")
    /// A list of checks, grouped.
    public static let checklist = EntryKind(rawValue: "checklist")
    /// A question tree parsed into nodes.
    public static let decisionTree = EntryKind(rawValue: "decision-tree")
    /// A fenced code example with a language.
    public static let example = EntryKind(rawValue: "example")
    /// A pipe table.
    public static let table = EntryKind(rawValue: "table")

    /// Every kind the parser produces, in the order of specificity used for headings.
    public static let all: [EntryKind] = [.skill, .antiPattern, .checklist, .decisionTree, .pattern, .table, .example, .section]

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
