import Foundation
import Testing

@testable import SkillParser

/// `skill validate`'s rules on the crafted skills of Fixtures/validation (one per rule).
@Suite struct ValidationTests {
    static let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("validation")

    /// Validates the one skill of fixture case `name`, showing paths as `case/skill/…`.
    static func validate(_ name: String, _ options: ValidationOptions = ValidationOptions()) throws -> ValidationReport {
        // Paths shown relative to the fixtures (no chdir: tests run in parallel).
        var report = try ValidationReport.validate(paths: [root.appendingPathComponent(name).path], options: options)
        report.diagnostics = report.diagnostics.map { d in
            var d = d
            d.path = String(d.path.dropFirst(root.path.count + 1))
            return d
        }
        return report
    }

    static let expected: [(String, [String])] = [
        ("valid", []),
        ("valid-all-fields", []),
        ("crlf", []),
        ("bom", []),
        ("lowercase-file", ["warning skill.file.lowercase-name"]),
        ("unknown-field", ["warning frontmatter.field.unknown"]),
        ("claude-reserved-word", []),
        ("claude-xml-tag", []),
        ("claude-too-many-files", []),
        ("name-missing", ["error frontmatter.name.missing"]),
        ("name-empty", ["error frontmatter.name.invalid"]),
        ("name-uppercase", ["error frontmatter.name.invalid"]),
        ("name-leading-hyphen", ["error frontmatter.name.invalid"]),
        ("name-trailing-hyphen", ["error frontmatter.name.invalid"]),
        ("name-double-hyphen", ["error frontmatter.name.invalid"]),
        ("name-underscore", ["error frontmatter.name.invalid"]),
        ("name-too-long", ["error frontmatter.name.invalid"]),
        ("name-mismatch", ["error frontmatter.name.mismatch"]),
        ("name-unicode", ["error frontmatter.name.invalid"]),
        ("name-not-string", ["error frontmatter.field.not-a-string"]),
        ("description-missing", ["error frontmatter.description.missing"]),
        ("description-empty", ["error frontmatter.description.missing"]),
        ("description-too-long", ["error frontmatter.description.too-long"]),
        ("description-not-string", ["error frontmatter.field.not-a-string"]),
        ("compatibility-too-long", ["error frontmatter.compatibility.too-long"]),
        ("metadata-nested", ["error frontmatter.metadata.not-strings"]),
        ("metadata-list", ["error frontmatter.metadata.not-strings"]),
        ("allowed-tools-list", ["warning frontmatter.allowed-tools.list"]),
        ("no-frontmatter", ["error frontmatter.missing"]),
        ("frontmatter-unclosed", ["error frontmatter.unclosed"]),
        (
            "frontmatter-not-map",
            ["error frontmatter.name.missing", "error frontmatter.description.missing", "error frontmatter.not-a-map"]
        ),
        ("yaml-syntax", ["error frontmatter.yaml-syntax"]),
        ("comment-cut", ["error frontmatter.value-cut-by-comment"]),
        ("invalid-utf8", ["error encoding.invalid-utf8"]),
        ("no-skill-md", ["error skill.file.missing"]),
    ]

    @Test(arguments: expected.map(\.0))
    func rule(_ name: String) throws {
        let report = try Self.validate(name)
        let found = report.diagnostics.map { "\($0.severity.rawValue) \($0.id)" }
        let want = Self.expected.first { $0.0 == name }!.1
        #expect(found.sorted() == want.sorted())
        #expect(report.hasErrors == want.contains { $0.hasPrefix("error") })
    }

    @Test func everyCaseIsCovered() throws {
        let cases = try FileManager.default.contentsOfDirectory(atPath: Self.root.path).sorted()
        #expect(cases == Self.expected.map(\.0).sorted())
    }

    @Test func messagesArePinnedToFileLines() throws {
        #expect(
            try Self.validate("name-mismatch").diagnostics.map(\.formatted) == [
                "name-mismatch/folder-name/SKILL.md:2:1: error: name 'other-name' differs from its folder 'folder-name'; rename one so they match [frontmatter.name.mismatch]"
            ])
        #expect(
            try Self.validate("comment-cut").diagnostics.map(\.formatted) == [
                "comment-cut/comment-cut/SKILL.md:3:29: error: the value of 'description' ends at ' #' because YAML reads the rest of the line as a comment, so '#markdown. Use when aligning tables.' is lost; put the value in double quotes [frontmatter.value-cut-by-comment]"
            ])
        #expect(
            try Self.validate("unknown-field").diagnostics.map(\.formatted) == [
                "unknown-field/vendor-field/SKILL.md:4:1: warning: 'version' is not an Agent Skills field; move it under 'metadata:' or pass --allow-field version [frontmatter.field.unknown]"
            ])
        #expect(
            try Self.validate("no-skill-md").diagnostics.map(\.formatted) == [
                "no-skill-md/SKILL.md:1:1: error: no SKILL.md in this folder or below it; a skill is a folder holding SKILL.md with 'name' and 'description' frontmatter [skill.file.missing]"
            ])
    }

    @Test func allowFieldAndStrict() throws {
        #expect(try Self.validate("unknown-field", ValidationOptions(allowedFields: ["version"])).diagnostics.isEmpty)
        let strict = try Self.validate("unknown-field", ValidationOptions(strict: true))
        #expect(strict.diagnostics.map(\.severity) == [.error])
        #expect(strict.hasErrors)
    }

    @Test func claudeTarget() throws {
        let claude = ValidationOptions(target: .claude)
        #expect(
            try Self.validate("claude-reserved-word", claude).diagnostics.map(\.formatted) == [
                "claude-reserved-word/claude-helper/SKILL.md:2:1: error: name 'claude-helper' contains the reserved word 'claude', which Claude refuses; choose another name [claude.name.reserved-word]"
            ])
        #expect(
            try Self.validate("claude-xml-tag", claude).diagnostics.map(\.formatted) == [
                "claude-xml-tag/xml-tag/SKILL.md:3:1: error: description contains the XML tag '<table>', which Claude refuses; write it without angle brackets [claude.xml-tag]"
            ])
        #expect(try Self.validate("claude-too-many-files", claude).diagnostics.map(\.id) == [.claudeTooManyFiles])
        #expect(try Self.validate("valid", claude).diagnostics.isEmpty)
    }

    @Test func folderOfSkillsIsWalked() throws {
        let report = try ValidationReport.validate(paths: [Self.root.path])
        #expect(report.skills.count == Self.expected.count - 1)
        #expect(report.summary.hasPrefix("\(Self.expected.count - 1) skills: 10 valid, 24 invalid"))
        let json = try JSONSerialization.jsonObject(with: report.json()) as! [String: Any]
        #expect(json["schemaVersion"] as? Int == 1)
    }

    @Test func missingPathThrows() {
        #expect(throws: SkillError.notFound("/no/such/skill")) { try ValidationReport.validate(paths: ["/no/such/skill"]) }
    }

    @Test func promptEscapesValues() throws {
        #expect(AvailableSkills.escape(#"a <b> & "c" 'd'"#) == "a &lt;b&gt; &amp; &quot;c&quot; &#x27;d&#x27;")
        var diagnostics: [Diagnostic] = []
        let xml = try AvailableSkills.render(paths: [Self.root.appendingPathComponent("valid").path], diagnostics: &diagnostics)
        let location = Self.root.appendingPathComponent("valid/good-skill/SKILL.md").resolvingSymlinksInPath().path
        #expect(
            xml == """
                <available_skills>
                <skill>
                <name>
                good-skill
                </name>
                <description>
                Formats tables. Use when the user asks to align a markdown table.
                </description>
                <location>
                \(location)
                </location>
                </skill>
                </available_skills>
                """)
        #expect(diagnostics.isEmpty)
    }
}
