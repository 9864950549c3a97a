import Foundation
import SkillCheck
import SkillIndex
import SkillParser

/// What the server needs from the skills: search, entries, skills and their files. The server
/// never touches the disk or the index itself; ``IndexKnowledgeBase`` implements this over the
/// SQLite index, and tests may stand in their own (a gated one checks cancellation).
///
/// Implementations are called from several threads (requests on one, the freshness check on
/// another) and must synchronise themselves.
public protocol KnowledgeBase: Sendable {
    /// Ranked entries for `query`, best first.
    /// - Parameter query: free words; may be empty when `kind` or `skill` is given, which then
    ///   means every entry of that kind or skill, in source order.
    /// - Returns: at most `query.limit` hits, with the typo corrections made and whether they
    ///   match only part of the query.
    func search(_ query: KnowledgeQuery) throws -> SearchResults

    /// The entry with this id, in full; `nil` when there is none.
    func entry(id: String) -> Entry?

    /// Ids near `id` (same skill and document first, then by edit distance), for an unknown id.
    func nearIDs(to id: String, limit: Int) -> [String]

    /// Every skill, sorted by name.
    func skills() -> [SkillInfo]

    /// The skill named `name` (`NAME~2` included); `nil` when there is none.
    func skill(named name: String) -> SkillInfo?

    /// The bytes of a file of a skill: `path` is relative to the skill's folder and must be one
    /// of its ``SkillInfo/documents`` or ``SkillInfo/resources``; `nil` otherwise, or when
    /// the file (after resolving symbolic links) lies outside the skill's folder.
    func file(skill: String, path: String) -> Data?

    /// The skills' anti-patterns and checklists, ready to apply to code (`review`, `check`);
    /// `nil` when they cannot be read now.
    func checker() -> Checker?

    /// At most `count` bytes of a file of a skill from byte `offset`, and the file's size: what
    /// a `resources/read` part needs, without reading the rest. The same checks as
    /// ``file(skill:path:)``.
    func file(skill: String, path: String, offset: Int, count: Int) -> (data: Data, size: Int)?

    /// Checks whether the skills changed on disk and, if so, brings the knowledge up to date.
    /// Called when a watched folder changed (or once a second when polling), outside the reply
    /// path.
    /// - Returns: `true` when skills, documents or entries changed.
    func refresh() -> Bool

    /// Every folder whose changes may change the knowledge (after the first refresh), for the
    /// server to watch; `nil` when there is none to watch (the server then polls ``refresh()``).
    func watchedFolders() -> [String]?

    /// Every skill's files with their digests and sizes, and its frontmatter as JSON, sorted by
    /// name: what the MCP Skills extension serves. Recorded when the knowledge is built, so
    /// this reads no file.
    func manifests() -> [SkillManifest]

    /// What to tell a client when no skill is known: where the skills were looked for and how
    /// to point the server at them.
    func noSkillsMessage() -> String
}

extension KnowledgeBase {
    /// A plain answer for knowledge bases that do not look for skills on disk.
    public func noSkillsMessage() -> String { "no skills are indexed" }

    /// No folders: knowledge bases that do not read skills from disk are polled.
    public func watchedFolders() -> [String]? { nil }

    /// No manifests: knowledge bases without recorded files serve no skill through the extension.
    public func manifests() -> [SkillManifest] { [] }
}

extension KnowledgeBase {
    /// No checker: `review` and `check` answer that code checking is unavailable.
    public func checker() -> Checker? { nil }

    /// Reads the whole file and slices it: for knowledge bases that hold files in memory.
    public func file(skill: String, path: String, offset: Int, count: Int) -> (data: Data, size: Int)? {
        guard let data = file(skill: skill, path: path) else { return nil }
        let start = min(max(offset, 0), data.count)
        let end = min(data.count, start + max(count, 0))
        return (data.subdata(in: (data.startIndex + start)..<(data.startIndex + end)), data.count)
    }
}

/// A search: free words plus filters.
public struct KnowledgeQuery: Hashable, Sendable {
    public var text: String
    public var kind: EntryKind?
    public var skill: String?
    public var limit: Int

    public init(text: String, kind: EntryKind? = nil, skill: String? = nil, limit: Int = 5) {
        self.text = text
        self.kind = kind
        self.skill = skill
        self.limit = limit
    }
}

/// A skill as the server lists it.
public struct SkillInfo: Codable, Hashable, Sendable {
    public var name: String
    public var description: String
    /// The skill's folder relative to its root (`.` when the root is the skill).
    public var path: String
    /// The skill file's name in its folder: `SKILL.md` (or `skill.md`).
    public var skillFile: String
    /// Markdown documents relative to the skill's folder, the skill file first.
    public var documents: [String]
    /// Other files relative to the skill's folder (scripts, assets).
    public var resources: [String]
    public var entryCount: Int

    public init(
        name: String, description: String, path: String, skillFile: String, documents: [String], resources: [String], entryCount: Int
    ) {
        self.name = name
        self.description = description
        self.path = path
        self.skillFile = skillFile
        self.documents = documents
        self.resources = resources
        self.entryCount = entryCount
    }
}
