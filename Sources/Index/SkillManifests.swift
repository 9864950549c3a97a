import Foundation
import SkillParser

/// Every file of a skill with its SHA-256 digest and size, and its frontmatter as JSON: what the
/// MCP Skills extension's `skills/list` and `skills/get` send. Recorded by the build (and by
/// ``SkillIndex/refreshManifests()``) so that listing never reads the files again: a file is
/// hashed again only when its size or time changed.
public struct SkillManifest: Codable, Hashable, Sendable {
    /// One file of the skill, relative to the skill's folder.
    public struct File: Codable, Hashable, Sendable {
        public var path: String
        public var size: Int64
        /// `sha256:` and 64 lowercase hex digits, of the bytes on disk when it was recorded.
        public var digest: String
        /// The file's time when it was hashed (nanoseconds), to notice an edit in place.
        public var mtime: Int64

        public init(path: String, size: Int64, digest: String, mtime: Int64) {
            self.path = path
            self.size = size
            self.digest = digest
            self.mtime = mtime
        }
    }

    /// The most files a skill may have to be served (the extension's limit, SKILL.md included).
    public static let maxFiles = 512
    /// The most bytes all files of a skill may hold together to be served (16 MiB).
    public static let maxTotalSize: Int64 = 16 << 20

    /// The skill's name in the index (`NAME`, `PLUGIN:NAME` or `NAME~2`).
    public var name: String
    /// The skill's folder relative to its root (`.` when the root is the skill).
    public var path: String
    /// The Claude Code plugin the skill ships in, if any.
    public var plugin: String?
    /// The frontmatter of its skill file as a JSON object (``FrontmatterJSON``); `nil` when it
    /// could not be read as one.
    public var frontmatter: String?
    /// The skill file's path in the folder (`SKILL.md`, or `skill.md`).
    public var skillFile: String
    /// Every file, sorted by path (byte order); empty when the skill exceeds a limit (its files
    /// are then counted, not hashed).
    public var files: [File]
    /// How many files the folder holds, and their total size.
    public var fileCount: Int
    public var totalSize: Int64

    /// Whether the skill has more than ``maxFiles`` files or more than ``maxTotalSize`` bytes.
    public var exceedsLimits: Bool { fileCount > Self.maxFiles || totalSize > Self.maxTotalSize }

    /// Why the skill is not served, in words; `nil` within the limits.
    public var limitProblem: String? {
        guard exceedsLimits else { return nil }
        return
            "skill '\(name)' has \(fileCount) files and \(totalSize) bytes; the MCP Skills extension allows at most \(Self.maxFiles) files and \(Self.maxTotalSize) bytes (16 MiB) per skill, so it is not served as a skill (move large or generated files out of its folder)"
    }
}

extension IndexBuilder {
    /// Brings the recorded manifests up to date with the skills' folders: walks each indexed
    /// skill's folder (files excluded from packing, such as `.git`, are left out), hashes the
    /// files whose size or time changed, and drops the rows of skills no longer indexed.
    /// - Returns: whether any manifest changed (then `manifests.generation` is raised).
    @discardableResult
    func updateManifests() throws -> Bool {
        try Self.updateManifests(db)
    }

    static func updateManifests(_ db: Database) throws -> Bool {
        let decoder = JSONDecoder()
        var stored: [String: SkillManifest] = [:]
        for (folder, json) in try db.query("SELECT folder, manifest FROM manifests", [], { ($0.text(0), $0.text(1)) }) {
            stored[folder] = try? decoder.decode(SkillManifest.self, from: Data(json.utf8))
        }
        let skills = try db.query("SELECT folder, name, path, root FROM skills WHERE name IS NOT NULL") {
            (folder: $0.text(0), name: $0.text(1), path: $0.text(2), root: $0.text(3))
        }
        var changed = false
        var plugins: [String: String?] = [:]
        for skill in skills {
            let old = stored.removeValue(forKey: skill.folder)
            if plugins[skill.root] == nil {
                plugins[skill.root] = ClaudePlugin.owning(skillsFolder: URL(fileURLWithPath: skill.root)).map(\.name)
            }
            let manifest = manifest(
                folder: skill.folder, name: skill.name, path: skill.path, plugin: plugins[skill.root] ?? nil, old: old)
            guard manifest != old else { continue }
            try db.run(
                "INSERT OR REPLACE INTO manifests(folder, manifest) VALUES (?, ?)", [.text(skill.folder), .text(try json(manifest))])
            changed = true
        }
        for folder in stored.keys {
            try db.run("DELETE FROM manifests WHERE folder = ?", [.text(folder)])
            changed = true
        }
        if changed {
            try db.run(
                "INSERT INTO meta(key, value) VALUES ('manifests.generation', '1') ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
            )
        }
        return changed
    }

    /// The manifest of one skill folder, reusing `old`'s digests for files whose size and time
    /// are unchanged.
    static func manifest(folder: String, name: String, path: String, plugin: String?, old: SkillManifest?) -> SkillManifest {
        var walked: [WalkedFile] = []
        FolderWalker.walk(URL(fileURLWithPath: folder, isDirectory: true), rules: .pack) { dir in
            walked += dir.files.filter(\.isReadable)
        }
        walked.sort { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
        let total = walked.reduce(Int64(0)) { $0 + $1.stamp.size }
        let skillFile = walked.first { $0.path == "SKILL.md" }?.path ?? walked.first { $0.path == "skill.md" }?.path ?? "SKILL.md"
        var manifest = SkillManifest(
            name: name, path: path, plugin: plugin, frontmatter: nil, skillFile: skillFile, files: [], fileCount: walked.count,
            totalSize: total)
        let known = Dictionary((old?.files ?? []).map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        if !manifest.exceedsLimits {
            for file in walked {
                if let before = known[file.path], before.size == file.stamp.size, before.mtime == file.stamp.mtime {
                    manifest.files.append(before)
                    continue
                }
                // A file that cannot be read now is left out; its folder's next change brings it back.
                guard let data = try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + file.path)) else { continue }
                manifest.files.append(
                    SkillManifest.File(
                        path: file.path, size: Int64(data.count), digest: "sha256:" + SHA256.hex(data), mtime: file.stamp.mtime))
            }
        }
        let skillDigest = manifest.files.first { $0.path == skillFile }?.digest
        if let old, old.frontmatter != nil, skillDigest != nil, old.files.first(where: { $0.path == skillFile })?.digest == skillDigest {
            manifest.frontmatter = old.frontmatter
        } else if let data = try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + skillFile)) {
            manifest.frontmatter = FrontmatterJSON.render(data)
        }
        return manifest
    }
}

extension SkillIndex {
    /// The manifest of every indexed skill, sorted by name.
    public func manifests() throws -> [SkillManifest] {
        try locked {
            let decoder = JSONDecoder()
            return try database().query("SELECT manifest FROM manifests", []) { $0.text(0) }
                .compactMap { try? decoder.decode(SkillManifest.self, from: Data($0.utf8)) }
                .sorted { $0.name < $1.name }
        }
    }

    /// Re-walks every skill's folder and records what changed without changing a markdown
    /// document or a folder's time (a script edited in place), which the freshness check does not
    /// see. Called after a freshness check that found the index fresh.
    /// - Returns: whether a manifest changed.
    @discardableResult
    public func refreshManifests() throws -> Bool {
        try locked {
            let db = try database()
            return try db.transaction { try IndexBuilder.updateManifests(db) }
        }
    }

    /// A number raised whenever a manifest changes: compare two readings to learn whether any did.
    public func manifestGeneration() throws -> Int {
        try locked {
            Int(try database().text("SELECT value FROM meta WHERE key = 'manifests.generation'") ?? "0") ?? 0
        }
    }
}
