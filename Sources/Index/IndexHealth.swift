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
    /// What is wrong, each with what to do; empty when all is well.
    public var problems: [String]
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
        let path = configuration.indexURL.path
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let modified = (attributes?[.modificationDate] as? Date).map { ISO8601DateFormatter().string(from: $0) }
        return IndexHealth(
            folders: folders,
            index: IndexHealth.IndexFile(path: path, bytes: (attributes?[.size] as? NSNumber)?.int64Value, modified: modified),
            skillCount: skillCount, entryCount: entryCount, bundledSkills: bundledSkills?.path, problems: problems)
    }
}
