import Foundation
import SkillParser

/// What went wrong with the index itself (never with a skill's content: that is a diagnostic).
public enum IndexError: Error, LocalizedError, Equatable, Sendable {
    /// A root given explicitly does not exist.
    case rootNotFound(String)
    /// The index file cannot be created or written.
    case unwritable(String, String)
    /// Another process held the index longer than the busy timeout.
    case busy(String)
    /// A test hook stopped the build, as a crash would.
    case interrupted
    /// No entry has this id.
    case entryNotFound(String)
    /// The index path names a file that is not an index of ours, which a build must not replace.
    case notAnIndex(String)

    public var errorDescription: String? {
        switch self {
        case .rootNotFound(let path):
            return "skills folder \(path) does not exist; pass an existing folder to --skills"
        case .unwritable(let path, let why):
            return "cannot write the index \(path): \(why); pass --index PATH or set SKILL_INDEX to a writable place"
        case .busy(let path):
            return "the index \(path) is locked by another process; try again"
        case .interrupted:
            return "the build was interrupted"
        case .entryNotFound(let id):
            return "no entry has the id '\(id)'; find ids with `skill search`"
        case .notAnIndex(let path):
            return "\(path) exists and is not a skill index; refusing to replace it: pass --index a new path (or SKILL_INDEX) or remove the file yourself"
        }
    }
}

/// A skill whose entries changed in a build.
public struct SkillChange: Codable, Hashable, Sendable {
    public var name: String
    /// The skill's folder relative to its root.
    public var path: String
    /// Its number of entries after the change (before it, for a removed skill).
    public var entries: Int
}

/// What a build or refresh did.
public struct BuildReport: Codable, Hashable, Sendable {
    /// Whether the index was written from scratch (new, unreadable, other schema or roots, or asked).
    public var full: Bool
    public var added: [SkillChange] = []
    public var updated: [SkillChange] = []
    public var removed: [SkillChange] = []
    /// Markdown documents parsed in this build; unchanged documents are not parsed again.
    public var documentsParsed: Int = 0
    /// Skills and entries in the index after the build.
    public var skillCount: Int = 0
    public var entryCount: Int = 0
    /// Diagnostics of the documents parsed in this build and of duplicate skill names.
    public var diagnostics: [Diagnostic] = []

    /// Whether the index changed at all.
    public var changed: Bool { full || !added.isEmpty || !updated.isEmpty || !removed.isEmpty || documentsParsed > 0 }
}

/// Where a build stands, for progress on a terminal.
public struct BuildProgress: Sendable {
    public var skillsDone: Int
    public var skillsTotal: Int
}

/// One ranked search result.
public struct SearchResult: Codable, Hashable, Sendable {
    /// The entry's id, for ``SkillIndex/entry(id:)`` and `skill show`.
    public var id: String
    public var kind: EntryKind
    public var title: String
    public var skill: String
    public var breadcrumb: [String]
    /// A short excerpt of the entry with the matched words between `**` markers.
    public var snippet: String
    /// Higher is better; comparable within one search only.
    public var score: Double
    public var source: SourceSpan
}

/// The answer to a search.
public struct SearchResults: Codable, Hashable, Sendable {
    /// The marker around a matched word in a snippet.
    public static let mark = "**"

    public var query: String
    public var results: [SearchResult]
    /// Words of the query replaced by the nearest indexed word (typo tolerance): original → used.
    public var corrections: [String: String] = [:]
    /// Whether the results match only some of the words (nothing matched all of them).
    public var partial: Bool = false
}

/// A skill in the index.
public struct SkillSummary: Codable, Hashable, Sendable {
    public var name: String
    public var description: String
    /// The root it was found under.
    public var root: String
    /// Its folder relative to the root.
    public var path: String
    /// Its entries by kind.
    public var entries: [String: Int]
    /// Its markdown documents, relative to the root.
    public var documents: [String]

    /// The skill's folder on disk: read `SKILL.md` and its other documents from here.
    public var folder: URL {
        path == "." ? URL(fileURLWithPath: root, isDirectory: true)
            : URL(fileURLWithPath: root, isDirectory: true).appendingPathComponent(path, isDirectory: true)
    }
}
