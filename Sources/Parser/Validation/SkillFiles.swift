import Foundation

/// One file of a skill folder as it would be packed.
public struct SkillFile: Hashable, Sendable {
    /// What the file is on disk.
    public enum Kind: Hashable, Sendable {
        /// A regular file.
        case file
        /// A symbolic link to a regular file inside the skill folder: packed as that file's content.
        case linkInside
        /// A symbolic link that leads out of the skill folder: never followed.
        case linkOutside
        /// A symbolic link to a folder: not followed (it could loop or leave the folder).
        case linkToFolder
        /// A symbolic link whose target does not exist.
        case linkBroken
    }

    /// Relative to the skill folder, `/`-separated.
    public var path: String
    public var kind: Kind
    /// Size in bytes of the content that would be packed (the target's for a link inside).
    public var size: Int64
    /// Whether the owner may execute it (packed as 0755, else 0644).
    public var isExecutable: Bool
}

/// The files of a skill folder that `skill pack` would put in a zip, in sorted order, with the
/// excluded ones left out.
public enum SkillFiles {
    /// Names never packed: version control, OS litter, caches, dependencies and secrets.
    public static func isExcluded(_ name: String) -> Bool {
        name == ".git" || name == ".DS_Store" || name == "__pycache__" || name == "node_modules"
            || name.hasSuffix(".pyc") || name.hasPrefix(".env")
    }

    /// Whether any execute bit is set (not `access(X_OK)`, which is true for root on any such file
    /// and depends on who runs it).
    static func isExecutable(_ attributes: [FileAttributeKey: Any]) -> Bool {
        ((attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0) & 0o111 != 0
    }

    /// Every file under `folder` that would be packed, sorted by path (byte order).
    public static func list(_ folder: URL) -> [SkillFile] {
        let fm = FileManager.default
        let rootReal = folder.resolvingSymlinksInPath().standardizedFileURL.path
        var result: [SkillFile] = []
        var stack: [(URL, String)] = [(folder, "")]
        while let (dir, prefix) = stack.popLast() {
            guard let names = try? fm.contentsOfDirectory(atPath: dir.path) else { continue }
            for name in names where !isExcluded(name) {
                let url = dir.appendingPathComponent(name)
                let path = prefix.isEmpty ? name : "\(prefix)/\(name)"
                guard let attributes = try? fm.attributesOfItem(atPath: url.path),
                      let type = attributes[.type] as? FileAttributeType else { continue }
                switch type {
                case .typeDirectory:
                    stack.append((url, path))
                case .typeRegular:
                    result.append(SkillFile(
                        path: path, kind: .file, size: (attributes[.size] as? NSNumber)?.int64Value ?? 0,
                        isExecutable: isExecutable(attributes)))
                case .typeSymbolicLink:
                    let target = url.resolvingSymlinksInPath().standardizedFileURL.path
                    var isDirectory: ObjCBool = false
                    let kind: SkillFile.Kind
                    var size: Int64 = 0
                    if !(target == rootReal || target.hasPrefix(rootReal + "/")) {
                        kind = .linkOutside
                    } else if !fm.fileExists(atPath: target, isDirectory: &isDirectory) {
                        kind = .linkBroken
                    } else if isDirectory.boolValue {
                        kind = .linkToFolder
                    } else {
                        kind = .linkInside
                        size = ((try? fm.attributesOfItem(atPath: target))?[.size] as? NSNumber)?.int64Value ?? 0
                    }
                    result.append(SkillFile(path: path, kind: kind, size: size, isExecutable: kind == .linkInside && isExecutable((try? fm.attributesOfItem(atPath: target)) ?? [:])))
                default:
                    continue
                }
            }
        }
        return result.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
    }
}
