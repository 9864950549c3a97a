import Foundation
import SkillParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Size and change time of a file, from one `stat` call.
struct FileStamp: Hashable, Sendable {
    var size: Int64
    /// The modification and status-change times (nanoseconds since 1970) added up: compared
    /// only for equality, it changes with either, so `chmod` (which changes only the latter)
    /// makes a document be read again.
    var mtime: Int64
    var isDirectory: Bool
    var inode: UInt64

    /// The stamp of `path` (symbolic links followed), or `nil` when it does not exist.
    static func of(_ path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
        let changed = Int64(st.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(st.st_ctimespec.tv_nsec)
        #else
        let modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        let changed = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        #endif
        let mtime = modified &+ changed
        return FileStamp(size: Int64(st.st_size), mtime: mtime, isDirectory: (st.st_mode & S_IFMT) == S_IFDIR, inode: UInt64(st.st_ino))
    }
}

/// A markdown document found on disk.
struct ScannedDocument: Sendable {
    /// Absolute path.
    var file: String
    /// Relative to the root.
    var path: String
    var stamp: FileStamp
}

/// A skill folder found on disk, with its markdown documents (SKILL.md first).
struct ScannedSkill: Sendable {
    /// Absolute path of the folder.
    var folder: String
    var rootIndex: Int
    var root: String
    /// Relative to the root (`.` for the root itself).
    var path: String
    var documents: [ScannedDocument]
}

/// What is on disk under the roots: every folder (for change detection) and every skill.
struct Scan: Sendable {
    var dirs: [String: Int64] = [:]
    var skills: [ScannedSkill] = []
}

/// Walks the roots with the Parser's rules: hidden folders scanned, `.git`, `node_modules`,
/// `.build` and `__pycache__` skipped, symbolic links followed only while they stay inside the
/// root; a SKILL.md (or skill.md) makes a skill folder; a markdown file belongs to the nearest
/// skill folder above it.
enum Scanner {
    static func scan(roots: [URL]) -> Scan {
        var scan = Scan()
        for (rootIndex, rootURL) in roots.enumerated() {
            let root = rootURL.path
            let rootReal = rootURL.resolvingSymlinksInPath().path
            var seen = Set<String>()
            // (folder, its path relative to the root, the nearest skill folder's index in `found`)
            var stack: [(String, String, Int?)] = [(root, ".", nil)]
            var found: [ScannedSkill] = []
            while let (folder, rel, owner) = stack.popLast() {
                let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
                guard real == rootReal || real.hasPrefix(rootReal + "/"), seen.insert(real).inserted else { continue }
                guard let stamp = FileStamp.of(folder), let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
                scan.dirs[folder] = stamp.mtime
                var files: [(String, FileStamp)] = []
                var subfolders: [String] = []
                for name in names.sorted() {
                    let path = folder + "/" + name
                    guard let stamp = FileStamp.of(path) else { continue }
                    if stamp.isDirectory {
                        if !SkillFinder.isSkipped(folderNamed: name) { subfolders.append(name) }
                    } else if name.lowercased().hasSuffix(".md") {
                        files.append((name, stamp))
                    }
                }
                var current = owner
                let skillFile = files.first { $0.0 == "SKILL.md" } ?? files.first { $0.0 == "skill.md" }
                if let skillFile {
                    let file = folder + "/" + skillFile.0
                    let path = rel == "." ? skillFile.0 : rel + "/" + skillFile.0
                    found.append(ScannedSkill(
                        folder: folder, rootIndex: rootIndex, root: root, path: rel,
                        documents: [ScannedDocument(file: file, path: path, stamp: skillFile.1)]))
                    current = found.count - 1
                }
                if let current {
                    // A document is listed only when it can be read back: its real path lies in
                    // its skill's folder, as the server checks before reading it.
                    let skillReal = URL(fileURLWithPath: found[current].folder).resolvingSymlinksInPath().path
                    for (name, stamp) in files where name != skillFile?.0 || found[current].folder != folder {
                        let file = folder + "/" + name
                        let target = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
                        guard target.hasPrefix(skillReal + "/") else { continue }
                        found[current].documents.append(ScannedDocument(
                            file: file, path: rel == "." ? name : rel + "/" + name, stamp: stamp))
                    }
                }
                for name in subfolders.reversed() {
                    stack.append((folder + "/" + name, rel == "." ? name : rel + "/" + name, current))
                }
            }
            for var skill in found.sorted(by: { $0.path < $1.path }) {
                let first = skill.documents.removeFirst()
                skill.documents = [first] + skill.documents.sorted { $0.path < $1.path }
                scan.skills.append(skill)
            }
        }
        return scan
    }

    /// The content hash recorded for a document.
    static func hash(_ data: Data) -> String {
        String(FNV1a.hash(data), radix: 16)
    }
}
