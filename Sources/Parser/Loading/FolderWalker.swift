import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a walk leaves out and how it treats symbolic links to folders: the one place that says
/// which files under a root are looked at (by the finder, the loader, the index and the packer).
public struct WalkRules: Sendable {
    /// Whether an entry of this name is left out, with everything under it; `isFolder` is what
    /// the entry is (a link's target for a link inside the root).
    public let skips: @Sendable (_ name: String, _ isFolder: Bool) -> Bool
    /// Whether a symbolic link to a folder inside the root is walked (else it is reported as a
    /// file of kind `.linkToFolder`).
    public let followsFolderLinks: Bool

    /// Folders never looked into when finding, loading or indexing skills.
    public static let skippedFolders: Set<String> = [".git", "node_modules", ".build", "__pycache__"]

    /// The name prefixes of the folders `skill install` and `uninstall` work in (older versions
    /// used the other two): never looked into, so an interrupted install is never indexed.
    public static let stagingPrefixes = [".skill-staging-", ".skill-install-", ".skill-uninstall-"]

    /// Finding, loading and indexing skills: `skippedFolders` and staging folders left out,
    /// hidden folders walked, links to folders inside the root walked.
    public static let skills = WalkRules(
        skips: { name, isFolder in
            isFolder && (skippedFolders.contains(name) || stagingPrefixes.contains { name.hasPrefix($0) })
        }, followsFolderLinks: true)

    /// Packing a skill: version control, OS litter, caches, dependencies and secrets left out,
    /// files or folders alike; links to folders not walked (a zip holds no links, and a link to a
    /// folder could loop).
    public static let pack = WalkRules(skips: { name, _ in isPackExcluded(name) }, followsFolderLinks: false)

    /// Names never packed: `.git`, `.DS_Store`, `__pycache__`, `node_modules`, `*.pyc`, `.env*`.
    public static func isPackExcluded(_ name: String) -> Bool {
        name == ".git" || name == ".DS_Store" || name == "__pycache__" || name == "node_modules"
            || name.hasSuffix(".pyc") || name.hasPrefix(".env")
    }
}

/// A file met by a walk: a regular file, or a symbolic link with what it leads to.
public struct WalkedFile: Hashable, Sendable {
    /// What the entry is on disk.
    public enum Kind: Hashable, Sendable {
        /// A regular file.
        case file
        /// A symbolic link to a regular file inside the root: read as that file.
        case linkInside
        /// A symbolic link that leads out of the root: never followed.
        case linkOutside
        /// A symbolic link to a folder that is not walked (rules that do not follow folder links).
        case linkToFolder
        /// A symbolic link whose target does not exist.
        case linkBroken
    }

    /// The file's name.
    public var name: String
    /// Relative to the root, `/`-separated.
    public var path: String
    /// What it is.
    public var kind: Kind
    /// The stamp of what is read: the target's for `.linkInside`, the link's own otherwise.
    public var stamp: FileStamp

    /// Whether its content can be read without leaving the root (a file or a link inside).
    public var isReadable: Bool { kind == .file || kind == .linkInside }
}

/// A folder met by a walk, with its files.
public struct WalkedFolder: Sendable {
    /// The folder as reached from the root (through links, not resolved).
    public var url: URL
    /// `url.path`.
    public var path: String
    /// Relative to the root (`.` for the root itself).
    public var relativePath: String
    /// The folder's own stamp (its mtime changes when an entry is added or removed).
    public var stamp: FileStamp
    /// Its files (not its folders), sorted by name; left-out names are absent.
    public var files: [WalkedFile]
    /// `SKILL.md`, else `skill.md`, when one of its readable files is named so.
    public var skillFile: String?
    /// The relative path of the nearest skill folder at or above it, if any: the skill its files
    /// belong to.
    public var skill: String?
}

/// The one walker of folder trees: visits the root and every folder below it, without recursion,
/// in sorted depth-first order, under a set of `WalkRules`. A symbolic link is followed only when
/// its target lies inside the root, and a folder reached twice (through a link) is visited once,
/// the first time.
public enum FolderWalker {
    /// Walks `root`, calling `visit` for each folder.
    /// - Parameters:
    ///   - rules: what is left out and whether links to folders are walked.
    ///   - stopsAtSkills: leave out every folder below the root that holds its own skill file, with
    ///     everything under it (the files of a nested skill are its own).
    public static func walk(_ root: URL, rules: WalkRules = .skills, stopsAtSkills: Bool = false, visit: (WalkedFolder) -> Void) {
        struct Pending {
            var url: URL
            var path: String
            var relativePath: String
            var real: String
            var skill: String?
        }
        let rootReal = root.resolvingSymlinksInPath().standardizedFileURL.path
        let isInside = { (path: String) in path == rootReal || path.hasPrefix(rootReal + "/") }
        var seen: Set<String> = []
        var stack = [Pending(url: root, path: root.path, relativePath: ".", real: rootReal, skill: nil)]
        while let folder = stack.popLast() {
            guard seen.insert(folder.real).inserted else { continue }
            var info = stat()
            guard stat(folder.path, &info) == 0, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
                continue
            }
            var files: [WalkedFile] = []
            var subfolders: [Pending] = []
            for name in names.sorted() {
                let path = folder.path + "/" + name
                let relative = folder.relativePath == "." ? name : folder.relativePath + "/" + name
                var entry = stat()
                guard lstat(path, &entry) == 0 else { continue }
                let add = { (kind: WalkedFile.Kind, stamp: FileStamp) in
                    files.append(WalkedFile(name: name, path: relative, kind: kind, stamp: stamp))
                }
                switch entry.st_mode & S_IFMT {
                case S_IFDIR:
                    if !rules.skips(name, true) {
                        subfolders.append(
                            Pending(
                                url: folder.url.appendingPathComponent(name), path: path, relativePath: relative,
                                real: folder.real + "/" + name))
                    }
                case S_IFREG:
                    if !rules.skips(name, false) { add(.file, FileStamp(entry)) }
                case S_IFLNK:
                    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
                    var resolved = stat()
                    if !isInside(target) {
                        if !rules.skips(name, false) { add(.linkOutside, FileStamp(entry)) }
                    } else if stat(target, &resolved) != 0 {
                        if !rules.skips(name, false) { add(.linkBroken, FileStamp(entry)) }
                    } else if resolved.st_mode & S_IFMT == S_IFDIR {
                        if rules.skips(name, true) { continue }
                        if rules.followsFolderLinks {
                            subfolders.append(
                                Pending(url: folder.url.appendingPathComponent(name), path: path, relativePath: relative, real: target))
                        } else {
                            add(.linkToFolder, FileStamp(entry))
                        }
                    } else if resolved.st_mode & S_IFMT == S_IFREG, !rules.skips(name, false) {
                        add(.linkInside, FileStamp(resolved))
                    }
                default:
                    continue  // sockets, pipes, devices: never read (a pipe would block the reader)
                }
            }
            let skillFile = ["SKILL.md", "skill.md"].first { name in files.contains { $0.name == name && $0.isReadable } }
            if stopsAtSkills, skillFile != nil, folder.relativePath != "." { continue }
            let skill = skillFile != nil ? folder.relativePath : folder.skill
            visit(
                WalkedFolder(
                    url: folder.url, path: folder.path, relativePath: folder.relativePath, stamp: FileStamp(info),
                    files: files, skillFile: skillFile, skill: skill))
            for var sub in subfolders.reversed() {
                sub.skill = skill
                stack.append(sub)
            }
        }
    }
}
