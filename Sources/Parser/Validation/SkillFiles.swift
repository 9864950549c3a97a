import Foundation

/// One file of a skill folder as it would be packed.
public struct SkillFile: Hashable, Sendable {
    /// What the file is on disk (the walker's kinds, the skill folder being the root).
    public typealias Kind = WalkedFile.Kind

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
    /// Every file under `folder` that would be packed, sorted by path (byte order).
    public static func list(_ folder: URL) -> [SkillFile] {
        var result: [SkillFile] = []
        FolderWalker.walk(folder, rules: .pack) { dir in
            for file in dir.files {
                result.append(
                    SkillFile(
                        path: file.path, kind: file.kind, size: file.isReadable ? file.stamp.size : 0,
                        isExecutable: file.isReadable && file.stamp.isExecutable))
            }
        }
        return result.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
    }
}
