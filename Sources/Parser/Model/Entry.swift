/// Where an entry stands: a file relative to its root and 1-based lines, frontmatter counted.
public struct SourceSpan: Codable, Hashable, Sendable {
    public var path: String
    public var line: Int
    public var endLine: Int

    public init(path: String, line: Int, endLine: Int) {
        self.path = path
        self.line = line
        self.endLine = endLine
    }
}

/// Whether a code example shows what to do or what not to do.
public enum Verdict: String, Codable, Hashable, Sendable {
    case good, bad, neutral
}

/// A fenced code block.
public struct CodeBlock: Codable, Hashable, Sendable {
    /// The first word of the info string, lower-cased; empty when the fence has none.
    public var language: String
    public var code: String
    public var verdict: Verdict

    public init(language: String, code: String, verdict: Verdict) {
        self.language = language
        self.code = code
        self.verdict = verdict
    }
}

/// The unit of search and retrieval: a skill, a section, a pattern, an anti-pattern, a checklist,
/// a decision tree, a code example or a table.
public struct Entry: Hashable, Sendable {
    /// Stable and readable: `<skill>/<doc path without .md>#<heading-slug>[/<slug>…][~<kind>-<n>]`.
    public var id: String
    public var kind: EntryKind
    public var title: String
    public var skill: String
    /// Titles of the headings above the entry, outermost first, its own heading last.
    public var breadcrumb: [String]
    public var source: SourceSpan
    /// The entry's slice of its file, as written.
    public var markdown: String
    /// Plain text without markup, for search and snippets.
    public var text: String
    public var code: [CodeBlock]
    /// Swift attributes (`@State`), macros (`#expect`), modifiers (`.task(id:)`) and type names
    /// (`NavigationStack`) found in its code.
    public var keywords: [String]
    /// The parts only some kinds have.
    public var details: EntryDetails
    /// Whether the entry is content or routing (written for skill selection).
    public var role: EntryRole

    public init(
        id: String, kind: EntryKind, title: String, skill: String, breadcrumb: [String],
        source: SourceSpan, markdown: String, text: String, code: [CodeBlock] = [],
        keywords: [String] = [], details: EntryDetails = .none, role: EntryRole = .content
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.skill = skill
        self.breadcrumb = breadcrumb
        self.source = source
        self.markdown = markdown
        self.text = text
        self.code = code
        self.keywords = keywords
        self.details = details
        self.role = role
    }
}
