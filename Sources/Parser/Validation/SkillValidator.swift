import Foundation

/// What `skill validate` checks besides the Agent Skills specification.
public struct ValidationOptions: Hashable, Sendable {
    /// A platform whose upload rules are added to the specification's.
    public enum Target: String, Hashable, Sendable, CaseIterable {
        /// claude.ai and the Claude API: no reserved words, no XML tags, ≤ 200 files, ≤ 8 MB.
        case claude
    }

    /// Non-specification frontmatter fields accepted without a warning.
    public var allowedFields: Set<String>
    public var target: Target?
    /// Report non-specification fields as errors, as the reference validator does.
    public var strict: Bool

    public init(allowedFields: Set<String> = [], target: Target? = nil, strict: Bool = false) {
        self.allowedFields = allowedFields
        self.target = target
        self.strict = strict
    }
}

/// The verdict on one skill folder.
public struct SkillValidation: Codable, Hashable, Sendable {
    /// The frontmatter name, else the folder name.
    public var name: String
    /// The folder as given on the command line.
    public var path: String
    /// `true` when no diagnostic is an error.
    public var valid: Bool
    public var diagnostics: [Diagnostic]
}

/// The Agent Skills specification's rules, checked exactly, plus what the official checkers miss.
public enum SkillValidator {
    /// Claude's upload limits.
    public static let claudeFileLimit = 200
    public static let claudeByteLimit: Int64 = 8 * 1024 * 1024
    /// The loader's diagnostics that are about validity (the rest are lint).
    static let validityPrefixes = ["frontmatter.", "encoding.", "file."]

    /// Validates the skill in `target.folder`; diagnostic paths are shown as the user gave them.
    public static func validate(_ target: SkillTarget, options: ValidationOptions = ValidationOptions()) -> SkillValidation {
        let (name, front, loaded) = readFrontmatter(target.folder)
        var diagnostics = loaded.filter { d in validityPrefixes.contains { d.id.rawValue.hasPrefix($0) } }
        let skillFile = SkillFinder.skillFile(in: target.folder)?.lastPathComponent ?? "SKILL.md"
        if SkillFinder.skillFile(in: target.folder) == nil {
            diagnostics = [
                Diagnostic(
                    .error, .skillFileMissing, "no SKILL.md in this folder; a skill is a folder holding SKILL.md", path: skillFile, line: 1)
            ]
        } else {
            if skillFile != "SKILL.md" {
                diagnostics.append(
                    Diagnostic(
                        .warning, .skillFileLowercase,
                        "the file is named '\(skillFile)'; name it 'SKILL.md', the name agents look for on case-sensitive file systems",
                        path: skillFile, line: 1))
            }
            if front.lines == nil, !diagnostics.contains(where: { $0.id == .frontmatterMissing }) {
                diagnostics.append(
                    Diagnostic(
                        .error, .frontmatterMissing,
                        "no frontmatter: a SKILL.md starts with a '---' line, then 'name:' and 'description:', then '---'",
                        path: skillFile, line: 1))
            }
        }
        for field in front.fields where !SpecRules.fields.contains(field.key) && !options.allowedFields.contains(field.key) {
            diagnostics.append(
                Diagnostic(
                    options.strict ? .error : .warning, .fieldUnknown,
                    "'\(Echo.bounded(field.key))' is not an Agent Skills field; move it under 'metadata:' or pass --allow-field \(Echo.bounded(field.key))",
                    path: skillFile, line: field.line))
        }
        if options.target == .claude {
            diagnostics += claudeRules(front, folder: target.folder, skillFile: skillFile)
        }
        diagnostics = diagnostics.map { d in
            var d = d
            d.path = target.display(d.path)
            return d
        }
        diagnostics.sort { ($0.path, $0.line, $0.column) < ($1.path, $1.line, $1.column) }
        return SkillValidation(
            name: name, path: target.displayPath,
            valid: !diagnostics.contains { $0.severity == .error }, diagnostics: diagnostics)
    }

    /// SKILL.md's frontmatter checked against the specification, and the encoding of every other
    /// markdown file of the skill, without building the knowledge model (10x faster than a load).
    static func readFrontmatter(_ folder: URL) -> (name: String, frontmatter: Frontmatter, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let skillFile = SkillFinder.skillFile(in: folder)?.lastPathComponent ?? "SKILL.md"
        let folderName = folder.standardizedFileURL.lastPathComponent
        guard SkillFinder.skillFile(in: folder) != nil else { return (folderName, Frontmatter(), []) }
        let data = SkillLoader.read(folder.appendingPathComponent(skillFile), path: skillFile, diagnostics: &diagnostics)
        let source = SourceText(bytes: data, path: skillFile, diagnostics: &diagnostics)
        let front = FrontmatterParser.parse(source, path: skillFile, required: !source.lines.isEmpty, diagnostics: &diagnostics).frontmatter
        SpecRules.check(front, folder: folderName, path: skillFile, diagnostics: &diagnostics)
        FolderWalker.walk(folder, stopsAtSkills: true) { dir in
            for file in dir.files where file.isReadable && file.name.lowercased().hasSuffix(".md") && file.path != skillFile {
                let bytes = SkillLoader.read(dir.url.appendingPathComponent(file.name), path: file.path, diagnostics: &diagnostics)
                if String(validating: bytes, as: UTF8.self) == nil || bytes.contains(0) {
                    _ = SourceText(bytes: bytes, path: file.path, diagnostics: &diagnostics)
                }
            }
        }
        return (SkillLoader.skillName(front, folder: folderName), front, diagnostics)
    }

    /// Claude's upload rules: https://docs.claude.com (Agent Skills, "Skill structure").
    static func claudeRules(_ front: Frontmatter, folder: URL, skillFile: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let top = front.lines?.lowerBound ?? 1
        if let field = front.field("name"), let name = field.value.string {
            for word in ["anthropic", "claude"] where name.lowercased().contains(word) {
                diagnostics.append(
                    Diagnostic(
                        .error, .claudeReservedWord,
                        "name '\(Echo.bounded(name))' contains the reserved word '\(word)', which Claude refuses; choose another name",
                        path: skillFile, line: field.line))
            }
        }
        for key in ["name", "description"] {
            if let field = front.field(key), let value = field.value.string, let tag = xmlTag(in: value) {
                diagnostics.append(
                    Diagnostic(
                        .error, .claudeXMLTag,
                        "\(key) contains the XML tag '\(Echo.bounded(tag))', which Claude refuses; write it without angle brackets",
                        path: skillFile, line: field.line))
            }
        }
        let files = SkillFiles.list(folder).filter { $0.kind == .file || $0.kind == .linkInside }
        if files.count > claudeFileLimit {
            diagnostics.append(
                Diagnostic(
                    .error, .claudeTooManyFiles,
                    "the skill has \(files.count) files, over Claude's limit of \(claudeFileLimit); remove or merge files",
                    path: skillFile, line: top))
        }
        let bytes = files.reduce(Int64(0)) { $0 + $1.size }
        if bytes > claudeByteLimit {
            diagnostics.append(
                Diagnostic(
                    .error, .claudeTooLarge,
                    "the skill's files add up to \(bytes) bytes, over Claude's limit of 8 MB (\(claudeByteLimit) bytes); remove large assets",
                    path: skillFile, line: top))
        }
        return diagnostics
    }

    /// The first `<tag>`, `</tag>` or `<tag …>` in `text`.
    static func xmlTag(in text: String) -> String? {
        guard let range = text.range(of: #"</?[A-Za-z][A-Za-z0-9_.:-]*(\s[^<>]*)?/?>"#, options: .regularExpression) else { return nil }
        return String(text[range])
    }
}

/// What `skill validate` reports for all the paths it was given.
public struct ValidationReport: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var skills: [SkillValidation]
    /// Every diagnostic, including those about paths that hold no skill.
    public var diagnostics: [Diagnostic]
    public var errorCount: Int
    public var warningCount: Int

    /// Validates every skill that `paths` name.
    /// - Throws: ``SkillError/notFound(_:)`` when a path does not exist.
    public static func validate(paths: [String], options: ValidationOptions = ValidationOptions()) throws -> ValidationReport {
        var missing: [Diagnostic] = []
        let targets = try SkillTargets.resolve(paths, diagnostics: &missing)
        let skills = targets.map { SkillValidator.validate($0, options: options) }
        return ValidationReport(skills: skills, extra: missing)
    }

    init(skills: [SkillValidation], extra: [Diagnostic]) {
        schemaVersion = Self.currentSchemaVersion
        self.skills = skills
        diagnostics = extra + skills.flatMap(\.diagnostics)
        errorCount = diagnostics.filter { $0.severity == .error }.count
        warningCount = diagnostics.filter { $0.severity == .warning }.count
    }

    public var hasErrors: Bool { errorCount > 0 }

    /// One line for the end of human output: `3 skills: 2 valid, 1 invalid (1 error, 4 warnings)`.
    public var summary: String {
        let valid = skills.filter(\.valid).count
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        return
            "\(plural(skills.count, "skill")): \(valid) valid, \(skills.count - valid) invalid (\(plural(errorCount, "error")), \(plural(warningCount, "warning")))"
    }

    /// The report as JSON with a top-level `schemaVersion`, keys sorted.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes, .sortedKeys]
        return try encoder.encode(self)
    }
}
