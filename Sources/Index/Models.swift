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
    /// An entry's document (this file) no longer holds what the index recorded, and a refresh
    /// did not see the change (its size and time are as recorded).
    case documentChanged(String)
    /// The index file (this path) is damaged where a search read it (SQLite's reason).
    case damaged(String, String)

    /// Whether the committed index can still be read after this error (another process is
    /// writing it, or it cannot be written but is there).
    public var leavesIndexReadable: Bool {
        switch self {
        case .busy, .unwritable: return true
        default: return false
        }
    }

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
            return
                "\(path) exists and is not a skill index; refusing to replace it: pass --index a new path (or SKILL_INDEX) or remove the file yourself"
        case .documentChanged(let path):
            return "\(path) changed since the index was built, keeping its size and time; run `skill build --verify` to re-read it"
        case .damaged(let path, let why):
            return "the index \(path) is damaged (\(why)); run `skill build --full` to build it again"
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
    /// Documents read and hashed by a verifying build (`refresh(verify:)`); `nil` otherwise.
    /// Those that differed from the index are the ones parsed (``documentsParsed``).
    public var verified: Int?
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
    /// The same entry, byte for byte, elsewhere: another copy of the skill in another root, or a
    /// copied document. Such copies are one result, never two. `nil` when there is none.
    public var alsoAt: [OtherLocation]?
    /// The Claude Code plugin the entry's skill ships in (its name is `PLUGIN:SKILL`), if any.
    public var plugin: PluginSummary?
}

/// Another place that holds an entry identical to a result.
public struct OtherLocation: Codable, Hashable, Sendable {
    /// The copy's id; a copy in a skill shadowed by one of an earlier root has the result's id
    /// and is not in the index (`skill show` opens the result).
    public var id: String
    public var skill: String
    /// Relative to the copy's own root.
    public var source: SourceSpan
    /// The copy's file, so that roots with the same relative paths can be told apart.
    public var absolutePath: String
}

/// The answer to a search.
public struct SearchResults: Codable, Hashable, Sendable {
    /// The marker around a matched word in a snippet.
    public static let mark = "**"

    public var query: String
    public var results: [SearchResult]
    /// Words of the query replaced by the nearest indexed word (typo tolerance): original → used.
    public var corrections: [String: String] = [:]
    /// Whether the results match only some of the words: no result holds them all.
    public var partial: Bool = false

    /// What the search changed or could not do, in words, for a person or an agent to read
    /// before the results: typo corrections, a partial match.
    public var notes: [String] {
        var notes: [String] = []
        if !corrections.isEmpty {
            notes.append(
                "(searched for " + corrections.sorted { $0.key < $1.key }.map { "\($0.value) instead of \($0.key)" }.joined(separator: ", ")
                    + ")")
        }
        if partial, !results.isEmpty { notes.append("(no entry holds every word of the query; these match the most of it)") }
        return notes
    }
}

/// The Claude Code plugin a skill ships in.
public struct PluginSummary: Codable, Hashable, Sendable {
    /// The plugin's name: the prefix of its skills' names (`PLUGIN:SKILL`).
    public var name: String
    /// The manifest's version, if any.
    public var version: String?
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
    /// The Claude Code plugin it ships in (its root is the plugin's `skills/` folder), if any.
    public var plugin: PluginSummary?

    /// The skill's folder on disk: read `SKILL.md` and its other documents from here.
    public var folder: URL {
        path == "."
            ? URL(fileURLWithPath: root, isDirectory: true)
            : URL(fileURLWithPath: root, isDirectory: true).appendingPathComponent(path, isDirectory: true)
    }
}
