import Foundation
import SkillParser
import Testing

/// Each folder under Fixtures/model is a small skill showing one behaviour; its dump must equal
/// the checked-in `<name>.expected`. Run with SKILL_UPDATE_FIXTURES=1 to rewrite the expected
/// files after a deliberate change, then review the diff.
@Suite struct FixtureDumpTests {
    static let model = Paths.fixtures.appendingPathComponent("model")
    static let names =
        (try? FileManager.default.contentsOfDirectory(atPath: model.path))?
        .filter { !$0.hasSuffix(".expected") }.sorted() ?? []

    @Test func everyFixtureHasAnExpectedDump() {
        #expect(
            Self.names == [
                "about-documents", "anti-pattern-pairs", "checklist-groups", "decision-tree", "entry-kinds", "frontmatter-blocks",
                "keywords", "prompt-tags", "ragged-table", "routing", "unclosed-fence",
            ])
    }

    @Test(arguments: names)
    func dumpMatchesExpected(_ name: String) throws {
        let dump = ModelDump.render([loadSkill(Self.model.appendingPathComponent(name))])
        let expectedFile = Self.model.appendingPathComponent("\(name).expected")
        if ProcessInfo.processInfo.environment["SKILL_UPDATE_FIXTURES"] == "1" {
            try dump.write(to: expectedFile, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: expectedFile, encoding: .utf8)
        #expect(dump == expected)
    }
}
