import SkillParser

/// An anti-pattern's code found in the user's code.
public struct Finding: Codable, Hashable, Sendable {
    /// The checked file, as given.
    public var path: String
    /// The 1-based lines of the matching window.
    public var line: Int
    public var endLine: Int
    /// The share (0…1) of the signature's distinctive weight the window covers.
    public var score: Double
    /// The anti-pattern entry's id (`skill show ID` prints it in full).
    public var id: String
    public var title: String
    public var skill: String
    /// Why the anti-pattern is wrong, as its skill says.
    public var why: String
    /// The id of the ✅ example that fixes it, when the skill has one.
    public var fix: String?
    /// The ✅ code, as written in the skill (empty when there is none).
    public var fixCode: String
    /// Where the anti-pattern is written.
    public var source: SourceSpan

    /// The first line of ``why`` that says something (not a heading such as "Why it's wrong:").
    public var whySummary: String {
        why.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty && !$0.hasSuffix(":") } ?? ""
    }
}

/// A checklist that applies to the checked code: it names constructs the code uses.
public struct RelevantChecklist: Codable, Hashable, Sendable {
    public var id: String
    public var title: String
    public var skill: String
    /// The constructs (`@State`, `.task(id:)`, `NavigationStack`) shared with the code.
    public var matched: [String]
    public var items: [ChecklistItem]
    public var source: SourceSpan

    public init(id: String, title: String, skill: String, matched: [String], items: [ChecklistItem], source: SourceSpan) {
        self.id = id
        self.title = title
        self.skill = skill
        self.matched = matched
        self.items = items
        self.source = source
    }
}

/// A code record read back from the index with the entry it belongs to.
public struct IndexedCode: Sendable {
    public var id: String
    public var title: String
    public var skill: String
    public var source: SourceSpan
    public var record: CodeRecord

    public init(id: String, title: String, skill: String, source: SourceSpan, record: CodeRecord) {
        self.id = id
        self.title = title
        self.skill = skill
        self.source = source
        self.record = record
    }
}

/// A checklist as the checker needs it: the entry and its keywords.
public struct IndexedChecklist: Sendable {
    public var id: String
    public var title: String
    public var skill: String
    public var source: SourceSpan
    public var keywords: [String]
    public var items: [ChecklistItem]

    public init(id: String, title: String, skill: String, source: SourceSpan, keywords: [String], items: [ChecklistItem]) {
        self.id = id
        self.title = title
        self.skill = skill
        self.source = source
        self.keywords = keywords
        self.items = items
    }
}
