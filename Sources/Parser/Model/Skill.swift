/// A markdown file of a skill: SKILL.md or one of its references.
public struct Document: Codable, Hashable, Sendable {
    /// Relative to the root the skill was found under.
    public var path: String
    public var lineCount: Int
    public var byteCount: Int

    public init(path: String, lineCount: Int, byteCount: Int) {
        self.path = path
        self.lineCount = lineCount
        self.byteCount = byteCount
    }
}

/// A parsed skill: its frontmatter, documents, other files, entries and what was wrong with them.
public struct Skill: Codable, Hashable, Sendable {
    /// The frontmatter `name`, else the folder name; unique within one index (`NAME~2` otherwise).
    public var name: String
    public var description: String
    /// The skill's folder, relative to its root (`.` when the root is the skill itself).
    public var path: String
    public var frontmatter: Frontmatter
    public var documents: [Document]
    /// Files that are not markdown (scripts, assets), relative to the skill's folder.
    public var resources: [String]
    public var entries: [Entry]
    public var diagnostics: [Diagnostic]

    public init(
        name: String, description: String, path: String, frontmatter: Frontmatter,
        documents: [Document], resources: [String], entries: [Entry], diagnostics: [Diagnostic]
    ) {
        self.name = name
        self.description = description
        self.path = path
        self.frontmatter = frontmatter
        self.documents = documents
        self.resources = resources
        self.entries = entries
        self.diagnostics = diagnostics
    }
}
