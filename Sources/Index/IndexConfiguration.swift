import Foundation
import SkillEmbedding
import SkillParser

/// Which skill roots an index covers and where its file lives (DESIGN.md section 3).
public struct IndexConfiguration: Hashable, Sendable {
    /// The roots, in priority order (a skill in an earlier root shadows one of the same name in a
    /// later root), as resolved absolute paths without duplicates.
    public var roots: [URL]
    /// The SQLite file.
    public var indexURL: URL
    /// Every folder looked at for skills, in order, whether it exists or not (``roots`` keeps
    /// the existing ones): what to show a user who finds no skills.
    public var lookedAt: [URL]
    /// Whether the default roots were used and the bundled skills were not found among them
    /// (a binary copied by hand, away from its `share/skill/skills`).
    public var bundledSkillsMissing = false
    /// The sentence encoder's model file (``model(environment:executable:)``); `nil` when none is
    /// set up, and search is lexical alone.
    public var modelURL: URL?
    /// The folder of the user's vector cache, shared by every index (``VectorCache``).
    public var vectorCacheFolder: URL

    /// An explicit configuration. Roots are resolved and deduplicated by real path; the model and
    /// the vector cache are the process's (`SKILL_MODEL`, `XDG_CACHE_HOME`).
    public init(roots: [URL], indexURL: URL, lookedAt: [URL]? = nil) {
        self.roots = Self.deduplicated(roots)
        self.indexURL = indexURL.standardizedFileURL
        self.lookedAt = lookedAt ?? roots
        modelURL = Self.model()
        vectorCacheFolder = Self.cacheFolder()
    }

    /// Resolves roots and the index location the way the CLI does.
    ///
    /// Roots: `skills` when not empty (each must exist), else `SKILL_PATH` (colon-separated), else
    /// the existing folders among `./skills`, every agent's project-level folders (`./.claude/skills`,
    /// `./.agents/skills`, … in the order of `Agent.all`), every agent's user-level folders
    /// (`~/.claude/skills`, `~/.agents/skills`, `~/.codex/skills`, …), the `skills/` folder of every
    /// Claude Code plugin installed (unless `plugins` is false) and the bundled skills.
    /// Index: `index`, else `SKILL_INDEX`, else
    /// `${XDG_CACHE_HOME:-~/.cache}/skill/index-<hash of the roots>.sqlite`.
    /// - Parameters:
    ///   - plugins: whether the default roots include Claude Code plugins' skills (`--no-plugins`).
    ///   - environment: read for `HOME`, `SKILL_PATH`, `SKILL_INDEX`, `XDG_CACHE_HOME`, `SKILL_BUNDLED`.
    ///   - currentDirectory: the base of relative paths; the process's by default.
    ///   - executable: the running binary, to find the bundled skills; the process's by default.
    /// - Throws: ``IndexError/rootNotFound(_:)`` when an explicit root does not exist.
    public static func resolve(
        skills: [String] = [], index: String? = nil, plugins: Bool = true,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: URL? = nil, executable: URL? = nil
    ) throws -> IndexConfiguration {
        let cwd = currentDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        func url(_ path: String) -> URL {
            if path == "~" { return home }
            if path.hasPrefix("~/") { return home.appendingPathComponent(String(path.dropFirst(2))) }
            return URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL
        }
        var lookedAt: [URL]
        var bundledSkillsMissing = false
        if !skills.isEmpty {
            lookedAt = try skills.map {
                let root = url($0)
                guard isDirectory(root) else { throw IndexError.rootNotFound($0) }
                return root
            }
        } else if let path = environment["SKILL_PATH"], !path.isEmpty {
            lookedAt = path.split(separator: ":").map { url(String($0)) }
        } else {
            let places = Agent.Places(home: home, project: cwd, environment: environment)
            lookedAt = [cwd.appendingPathComponent("skills")] + Agent.skillFolders(places)
            if plugins { lookedAt += ClaudePlugin.installed(places).map(\.skills) }
            if let bundled = bundledSkills(environment: environment, executable: executable) {
                lookedAt.append(bundled)
            } else {
                bundledSkillsMissing = true
            }
        }
        let roots = deduplicated(lookedAt.filter(isDirectory))
        let indexURL: URL
        if let index, !index.isEmpty {
            indexURL = url(index)
        } else if let index = environment["SKILL_INDEX"], !index.isEmpty {
            indexURL = url(index)
        } else {
            indexURL = cacheFolder(environment: environment, currentDirectory: cwd)
                .appendingPathComponent("index-\(rootsHash(roots)).sqlite")
        }
        var configuration = IndexConfiguration(roots: roots, indexURL: indexURL, lookedAt: lookedAt)
        configuration.bundledSkillsMissing = bundledSkillsMissing
        configuration.modelURL = model(environment: environment, executable: executable)
        configuration.vectorCacheFolder = cacheFolder(environment: environment, currentDirectory: cwd)
        return configuration
    }

    /// The folder of the default index files: `${XDG_CACHE_HOME:-~/.cache}/skill`.
    public static func cacheFolder(
        environment: [String: String] = ProcessInfo.processInfo.environment, currentDirectory: URL? = nil
    ) -> URL {
        let cwd = currentDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let cache =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL }
            ?? (environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser).appendingPathComponent(".cache")
        return cache.appendingPathComponent("skill")
    }

    /// What to tell a user when the index holds no skill: where they were looked for and how to
    /// point at them.
    public var noSkillsMessage: String {
        let folders = lookedAt.map { "\($0.path) (\(Self.isDirectory($0) ? "no skills" : "missing"))" }
        var message =
            folders.isEmpty ? "no skills indexed: no folder to look in" : "no skills indexed: looked in " + folders.joined(separator: ", ")
        if bundledSkillsMissing {
            message += "; the bundled skills were not found beside this binary (install with `make install`, or set SKILL_BUNDLED)"
        }
        return message + "; pass --skills DIR or set SKILL_PATH"
    }

    /// The sentence encoder's model file: `SKILL_MODEL` when set (whether or not it exists: a
    /// wrong path is reported, not replaced; `none` for no model), else
    /// `<prefix>/share/skill/model/` beside an installed binary, else the checkout's `model/`
    /// (made by `scripts/setup`) when the binary runs from its `.build*/`; `nil` when none exists.
    public static func model(
        environment: [String: String] = ProcessInfo.processInfo.environment, executable: URL? = nil
    ) -> URL? {
        if let path = environment["SKILL_MODEL"], !path.isEmpty {
            return path == "none" ? nil : URL(fileURLWithPath: path).standardizedFileURL
        }
        let places = installedAndCheckout(executable: executable, installed: "share/skill/model", checkout: "model")
        return places.map { $0.appendingPathComponent(SentenceEncoder.fileName) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Where a binary finds what it ships with: `<prefix>/INSTALLED` for an installed binary,
    /// then `CHECKOUT` in the checkout whose `.build*/` the binary runs from.
    private static func installedAndCheckout(executable: URL?, installed: String, checkout: String) -> [URL] {
        guard let exe = (executable ?? currentExecutable())?.resolvingSymlinksInPath() else { return [] }
        let prefix = exe.deletingLastPathComponent().deletingLastPathComponent()
        var places = [prefix.appendingPathComponent(installed)]
        let components = exe.pathComponents
        if let build = components.firstIndex(where: { $0.hasPrefix(".build") }), build > 1 {
            let root = URL(fileURLWithPath: NSString.path(withComponents: Array(components[..<build])))
            places.append(root.appendingPathComponent(checkout))
        }
        return places
    }

    /// The bundled skills folder: `SKILL_BUNDLED`, else `<prefix>/share/skill/skills` beside an
    /// installed binary, else the checkout's `skills/` when the binary runs from its `.build*/`.
    public static func bundledSkills(
        environment: [String: String] = ProcessInfo.processInfo.environment, executable: URL? = nil
    ) -> URL? {
        if let path = environment["SKILL_BUNDLED"], !path.isEmpty { return URL(fileURLWithPath: path).standardizedFileURL }
        return installedAndCheckout(executable: executable, installed: "share/skill/skills", checkout: "skills").first(where: isDirectory)
    }

    private static func currentExecutable() -> URL? {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return URL(fileURLWithPath: path)
            }
        #endif
        return Bundle.main.executableURL
    }

    /// A short stable hash of the roots, naming the default index file.
    public static func rootsHash(_ roots: [URL]) -> String {
        let hash = FNV1a.hash(Data(roots.map(\.path).joined(separator: "\n").utf8))
        return String(String(hash, radix: 16).suffix(12))
    }

    static func isDirectory(_ url: URL) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
    }

    static func deduplicated(_ roots: [URL]) -> [URL] {
        var seen = Set<String>()
        return roots.map { $0.resolvingSymlinksInPath().standardizedFileURL }.filter { seen.insert($0.path).inserted }
    }
}

/// 64-bit FNV-1a: a fast, stable content hash (not for security).
enum FNV1a {
    static func hash(_ data: Data) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { bytes in
            for byte in bytes {
                h ^= UInt64(byte)
                h = h &* 0x100_0000_01b3
            }
        }
        return h
    }

    /// The `key` column of an entry id (``Schema``): the id's hash as SQLite's signed integer.
    static func key(_ id: String) -> SQLValue {
        .int(Int64(bitPattern: hash(Data(id.utf8))))
    }
}
