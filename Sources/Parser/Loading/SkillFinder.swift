import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds skill folders (folders holding SKILL.md) under a root: hidden folders included,
/// symbolic links followed only while they stay inside the root.
public enum SkillFinder {
    /// Folders never looked into (the index's scanner follows the same rule).
    public static let skippedFolders: Set<String> = [".git", "node_modules", ".build", "__pycache__"]
    /// The name prefix of the folders `skill install` and `uninstall` work in (older versions
    /// used the other two): never looked into, so an interrupted install is never indexed.
    public static let stagingPrefixes = [".skill-staging-", ".skill-install-", ".skill-uninstall-"]

    /// Whether a folder of this name is never looked into.
    public static func isSkipped(folderNamed name: String) -> Bool {
        skippedFolders.contains(name) || stagingPrefixes.contains { name.hasPrefix($0) }
    }

    /// The name of the skill file in `folder`, if it has one (`SKILL.md`, else `skill.md`).
    public static func skillFile(in folder: URL) -> URL? {
        for name in ["SKILL.md", "skill.md"] {
            let url = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return nil
    }

    /// Skill folders under `root` (the root itself when it holds SKILL.md), sorted by path.
    public static func skillFolders(in root: URL) -> [URL] {
        var found: [URL] = []
        walk(root) { folder, files in
            if files.contains("SKILL.md") || files.contains("skill.md") { found.append(folder) }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// Visits `root` and every folder below it that stays inside it, without recursion; `visit`
    /// gets each folder and the names of its regular files. A symbolic link is followed only when
    /// its target lies inside the root.
    static func walk(_ root: URL, skipping: (URL) -> Bool = { _ in false }, visit: (URL, [String]) -> Void) {
        let fm = FileManager.default
        let rootReal = root.resolvingSymlinksInPath().standardizedFileURL.path
        var seen: Set<String> = [rootReal]
        var stack = [root]
        while let folder = stack.popLast() {
            guard let names = try? fm.contentsOfDirectory(atPath: folder.path) else { continue }
            var files: [String] = []
            for name in names.sorted() {
                let url = folder.appendingPathComponent(name)
                var kind = FileKind.of(url.path)
                if kind == .link {
                    let target = url.resolvingSymlinksInPath().standardizedFileURL.path
                    guard target.hasPrefix(rootReal + "/") else { continue }
                    kind = FileKind.of(target)
                    if kind == .directory, !seen.insert(target).inserted { continue }
                }
                switch kind {
                case .directory:
                    if !isSkipped(folderNamed: name), !skipping(url) { stack.append(url) }
                case .file:
                    files.append(name)
                default:
                    break
                }
            }
            visit(folder, files)
        }
    }
}

/// What a path is, without following a symbolic link (one `lstat`).
enum FileKind {
    case file, directory, link, other

    static func of(_ path: String) -> FileKind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .link
        default: return .other
        }
    }
}
