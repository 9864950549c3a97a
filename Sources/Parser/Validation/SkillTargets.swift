import Foundation

/// A skill folder named on the command line, and how to show its files' paths.
public struct SkillTarget: Hashable, Sendable {
    /// The skill folder, absolute.
    public var folder: URL
    /// The folder as the user would write it (`skills/pdf`), prefixed to every diagnostic's path.
    public var displayPath: String

    public init(folder: URL, displayPath: String) {
        self.folder = folder
        self.displayPath = displayPath
    }

    /// `path` (relative to the skill folder) as the user would write it.
    public func display(_ path: String) -> String {
        displayPath == "." ? path : "\(displayPath)/\(path)"
    }
}

/// Turns the paths given to `skill validate`, `lint` and `prompt` into skill folders.
public enum SkillTargets {
    /// The skill folders that `paths` name: a skill folder, its SKILL.md, or a folder of skills
    /// (walked, hidden folders included). A folder holding no SKILL.md at all gives a
    /// `skill.file.missing` diagnostic instead.
    /// - Throws: ``SkillError/notFound(_:)`` when a path does not exist.
    public static func resolve(_ paths: [String], diagnostics: inout [Diagnostic]) throws -> [SkillTarget] {
        var targets: [SkillTarget] = []
        var seen = Set<String>()
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        for given in paths {
            let url = URL(fileURLWithPath: given, relativeTo: cwd).standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw SkillError.notFound(given)
            }
            let trimmed = given.count > 1 && given.hasSuffix("/") ? String(given.dropLast()) : given
            func add(_ folder: URL, _ display: String) {
                if seen.insert(folder.path).inserted { targets.append(SkillTarget(folder: folder, displayPath: display)) }
            }
            if !isDirectory.boolValue {
                let name = url.lastPathComponent
                let parent = (trimmed as NSString).deletingLastPathComponent
                if name == "SKILL.md" || name == "skill.md" {
                    add(url.deletingLastPathComponent(), parent.isEmpty ? "." : parent)
                } else {
                    diagnostics.append(
                        Diagnostic(
                            .error, .skillFileMissing,
                            "not a skill: give a skill folder, its SKILL.md or a folder of skills",
                            path: trimmed, line: 1))
                }
                continue
            }
            if SkillFinder.skillFile(in: url) != nil {
                add(url, trimmed)
                continue
            }
            let folders = SkillFinder.skillFolders(in: url)
            if folders.isEmpty {
                diagnostics.append(
                    Diagnostic(
                        .error, .skillFileMissing,
                        "no SKILL.md in this folder or below it; a skill is a folder holding SKILL.md with 'name' and 'description' frontmatter",
                        path: SkillTarget(folder: url, displayPath: trimmed).display("SKILL.md"), line: 1))
            }
            for folder in folders {
                let relative = SkillLoader.relativePath(of: folder, to: url)
                add(folder, relative == "." ? trimmed : (trimmed == "." ? relative : "\(trimmed)/\(relative)"))
            }
        }
        return targets
    }
}
