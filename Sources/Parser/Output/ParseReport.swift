import Foundation

/// What `skill parse` reports: the skills found at a path and every diagnostic.
public struct ParseReport: Codable, Sendable {
    /// The version of this JSON shape; raised when a field changes meaning or goes away.
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var skills: [Skill]
    public var diagnostics: [Diagnostic]

    public init(skills: [Skill]) {
        schemaVersion = Self.currentSchemaVersion
        self.skills = skills
        diagnostics = skills.flatMap(\.diagnostics)
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Parses what `path` names: a skill folder, a SKILL.md, another markdown file (read as a
    /// document of the skill around it), or a folder of skills.
    /// - Throws: ``SkillError/notFound(_:)`` when the path does not exist, ``SkillError/noSkills(_:)``
    ///   when a folder holds no SKILL.md.
    public static func parse(path: String) throws -> ParseReport {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw SkillError.notFound(path)
        }
        if isDirectory.boolValue {
            if SkillFinder.skillFile(in: url) != nil {
                return ParseReport(skills: [SkillLoader.load(folder: url, root: url.deletingLastPathComponent())])
            }
            let folders = SkillFinder.skillFolders(in: url)
            guard !folders.isEmpty else { throw SkillError.noSkills(path) }
            return ParseReport(skills: SkillLoader.load(folders: folders, root: url))
        }
        let folder = url.deletingLastPathComponent()
        let name = url.lastPathComponent
        if name == "SKILL.md" || name == "skill.md" {
            return ParseReport(skills: [SkillLoader.load(folder: folder, root: folder.deletingLastPathComponent())])
        }
        return ParseReport(skills: [SkillLoader.loadDocument(url)])
    }

    /// The report as pretty JSON with the field names of DESIGN.md section 2.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// Failures of the environment (not of a skill's content, which gives diagnostics).
public enum SkillError: LocalizedError, Equatable {
    case notFound(String)
    case noSkills(String)

    public var errorDescription: String? {
        switch self {
        case .notFound(let path):
            return "\(path): no such file or folder; give a SKILL.md, a markdown file or a skill folder"
        case .noSkills(let path):
            return "\(path): no SKILL.md in this folder or below it; a skill is a folder holding SKILL.md"
        }
    }
}
