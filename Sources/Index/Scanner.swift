import Foundation
import SkillParser

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

/// Walks the roots with the Parser's walker (`WalkRules.skills`): a SKILL.md (or skill.md) makes a
/// skill folder; a markdown file belongs to the nearest skill folder above it; every folder's
/// stamp is kept for change detection.
enum Scanner {
    static func scan(roots: [URL]) -> Scan {
        var scan = Scan()
        for (rootIndex, rootURL) in roots.enumerated() {
            let root = rootURL.path
            var found: [ScannedSkill] = []
            var foundAt: [String: Int] = [:]
            FolderWalker.walk(rootURL) { folder in
                scan.dirs[folder.path] = folder.stamp.mtime
                guard let owner = folder.skill else { return }
                if let skillFile = folder.files.first(where: { $0.name == folder.skillFile }) {
                    foundAt[folder.relativePath] = found.count
                    found.append(
                        ScannedSkill(
                            folder: folder.path, rootIndex: rootIndex, root: root, path: folder.relativePath,
                            documents: [
                                ScannedDocument(file: folder.path + "/" + skillFile.name, path: skillFile.path, stamp: skillFile.stamp)
                            ]))
                }
                guard let index = foundAt[owner] else { return }
                for file in folder.files where file.isReadable && file.name.lowercased().hasSuffix(".md") && file.name != folder.skillFile {
                    let path = folder.path + "/" + file.name
                    // A link is listed only when it can be read back: its target lies in its
                    // skill's folder, as the server checks before reading a document.
                    if file.kind == .linkInside {
                        let skillReal = URL(fileURLWithPath: found[index].folder).resolvingSymlinksInPath().path
                        guard URL(fileURLWithPath: path).resolvingSymlinksInPath().path.hasPrefix(skillReal + "/") else { continue }
                    }
                    found[index].documents.append(ScannedDocument(file: path, path: file.path, stamp: file.stamp))
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
