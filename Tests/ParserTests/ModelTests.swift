import Foundation
import SkillParser
import TestSupport
import Testing

/// Exact values behind the fixture dumps, where the dump flattens or shortens them.
@Suite struct ModelTests {
    static let model = Paths.fixtures.appendingPathComponent("model")

    func skill(_ name: String) -> Skill { loadSkill(Self.model.appendingPathComponent(name)) }

    @Test func frontmatterBlockScalarsAndQuotedColon() throws {
        let front = skill("frontmatter-blocks").frontmatter
        #expect(front.string("summary") == "Line one of a literal block.\nLine two.")
        #expect(front.string("folded") == "Folded lines join into one.\n")
        #expect(front.string("quoted") == "key: value inside quotes")
        #expect(
            front.field("metadata")?.value
                == .map([
                    FrontmatterField(key: "author", value: .string("skill project"), line: 12),
                    FrontmatterField(key: "version", value: .string("1.0"), line: 13),
                ]))
        #expect(front.lines == 1...14)
        #expect(front.fields.map(\.key) == ["name", "description", "summary", "folded", "quoted", "metadata"])
        #expect(front.fields.map(\.line) == [2, 3, 4, 7, 10, 11])
    }

    @Test func descriptionCutByCommentIsReportedWhereTheHashStands() {
        let s = skill("frontmatter-blocks")
        #expect(s.description == "Checks ordering")
        #expect(
            s.diagnostics.map(\.formatted) == [
                "frontmatter-blocks/SKILL.md:3:30: error: the value of 'description' ends at ' #' because YAML reads the rest of the line as a comment, so '#expect and more words after the hash' is lost; put the value in double quotes [frontmatter.value-cut-by-comment]"
            ])
    }

    @Test func antiPatternNamesItsFixAndTheFixIsAGoodExample() throws {
        let entries = skill("anti-pattern-pairs").entries
        let anti = try #require(entries.first { $0.id == "anti-pattern-pairs/SKILL#pairs/sorting-in-the-view~anti-pattern-1" })
        guard case .antiPattern(let details) = anti.details else {
            Issue.record("not an anti-pattern")
            return
        }
        #expect(
            details.why == "The sort runs on every render, and the list loses its identity.\nWhy it's wrong:\nwork repeats on every update")
        let fix = try #require(entries.first { $0.id == details.fix })
        #expect(fix.kind == .example)
        #expect(fix.details == .example(Example(language: "swift", verdict: .good)))
        #expect(
            fix.code == [
                CodeBlock(language: "swift", code: "var body: some View {\n    List(model.sortedItems) { Text($0) }\n}\n", verdict: .good)
            ])
        #expect(anti.source == SourceSpan(path: "anti-pattern-pairs/SKILL.md", line: 10, endLine: 29))
    }

    @Test func entryJSONRoundTripsForEveryKind() throws {
        let entries = FixtureDumpTests.names.flatMap { skill($0).entries }
        #expect(Set(entries.map(\.kind)) == Set(EntryKind.all))
        let data = try JSONEncoder().encode(entries)
        #expect(try JSONDecoder().decode([Entry].self, from: data) == entries)
    }

    @Test func entryJSONUsesTheDesignFieldNames() throws {
        let tree = try #require(skill("decision-tree").entries.first { $0.kind == .decisionTree })
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(tree)) as? [String: Any])
        #expect(
            Set(object.keys) == ["id", "kind", "title", "skill", "breadcrumb", "source", "markdown", "text", "code", "keywords", "nodes"])
        #expect(object["id"] as? String == "decision-tree/SKILL#trees/which-property-wrapper")
        #expect(object["breadcrumb"] as? [String] == ["Trees", "Which Property Wrapper"])
    }

    @Test func duplicateHeadingsGetNumberedSlugs() throws {
        let folder = try TemporaryFolder()
        try folder.write("dup/SKILL.md", "---\nname: dup\ndescription: d\n---\n# A\n## Setup\ntext\n## Setup\ntext\n## Setup\ntext\n")
        let ids = loadSkill(folder.url.appendingPathComponent("dup")).entries.map(\.id)
        #expect(ids == ["dup", "dup/SKILL#a", "dup/SKILL#a/setup", "dup/SKILL#a/setup-2", "dup/SKILL#a/setup-3"])
    }

    @Test func referencesAreDocumentsAndOtherFilesResources() throws {
        let folder = try TemporaryFolder()
        try folder.write("s/SKILL.md", "---\nname: s\ndescription: d\n---\n# S\nSee [guide](references/guide.md).\n")
        try folder.write("s/references/guide.md", "# Guide\n\n## Step One\n\nDo it.\n")
        try folder.write("s/scripts/run.sh", "echo hi\n")
        try folder.write("s/inner/SKILL.md", "---\nname: inner\ndescription: d\n---\n# Inner\n")
        let s = loadSkill(folder.url.appendingPathComponent("s"))
        #expect(s.documents.map(\.path) == ["s/SKILL.md", "s/references/guide.md"])
        #expect(s.resources == ["scripts/run.sh"])
        #expect(s.entries.map(\.id) == ["s", "s/SKILL#s", "s/references/guide#guide", "s/references/guide#guide/step-one"])
        #expect(SkillFinder.skillFolders(in: folder.url).map(\.lastPathComponent) == ["s", "inner"])
    }

    @Test func bodyIsTheMarkdownAfterTheFrontmatter() {
        #expect(DocumentParser.body(of: Data("---\nname: s\ndescription: d\n---\n\n\n# Title\nText.\n".utf8)) == "# Title\nText.\n")
        #expect(DocumentParser.body(of: Data("# No frontmatter\n".utf8)) == "# No frontmatter\n")
        #expect(DocumentParser.body(of: Data("---\r\nname: s\r\n---\r\n# T\r\n".utf8)) == "# T\r\n")
        #expect(DocumentParser.body(of: Data("---\nname: s\n".utf8)) == "")
    }
}
