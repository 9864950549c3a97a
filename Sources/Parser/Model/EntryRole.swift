/// What an entry is written for: the task itself, or choosing and navigating the skill. An open
/// vocabulary, like ``EntryKind``.
public struct EntryRole: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// Knowledge for the task: the default.
    public static let content = EntryRole(rawValue: "content")
    /// Written for the agent's skill selection or for finding the rest of the skill: the skill's
    /// own entry (its description), "When to Use This Skill", "Overview" of a SKILL.md, "Related
    /// Skills", an index of reference files.
    /// It names every topic of the skill, so search ranks it below the content it points to.
    public static let routing = EntryRole(rawValue: "routing")
    /// Written about the skill for the people who maintain it: every entry of its specification,
    /// evaluations, sources, change log, or a README at its top level (`SPEC.md`, `EVAL.md`,
    /// `evaluations/README.md`). It repeats the skill's topic words without serving the task, so
    /// search ranks it below content, as it does routing.
    public static let about = EntryRole(rawValue: "about")

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
