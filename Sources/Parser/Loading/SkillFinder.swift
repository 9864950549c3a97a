import Foundation

/// Finds skill folders (folders holding SKILL.md) under a root, with the walker's `skills` rules:
/// hidden folders included, symbolic links followed only while they stay inside the root.
public enum SkillFinder {
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
        FolderWalker.walk(root) { folder in
            if folder.skillFile != nil { found.append(folder.url) }
        }
        return found.sorted { $0.path < $1.path }
    }
}
