import Foundation
import TestSupport
import Testing

@testable import SkillParser

/// Small files crafted to make the parser do unbounded work (docs/reliability.md): each is
/// refused with its rule id, or parsed into output linear in its size.
@Suite(.timeLimit(.minutes(5))) struct HostileInputTests {
    func parse(_ text: String) throws -> (skill: Skill, found: [String], json: Int) {
        let folder = try TemporaryFolder()
        try folder.write("s/SKILL.md", text)
        let skill = loadSkill(folder.url.appendingPathComponent("s"))
        let json = try JSONEncoder().encode(skill).count
        return (skill, skill.diagnostics.map { "\($0.line):\($0.id)" }, json)
    }

    func skill(front: String, body: String = "# Title\n\ntext\n") -> String {
        "---\nname: s\ndescription: d\n" + front + "---\n\n" + body
    }

    /// `a0` to `a9`, each a list of ten of the one before: a billion strings from 600 bytes.
    static let laughs =
        "a0: &a0 \"lol\"\n"
        + (1...9).map { n in
            "a\(n): &a\(n) [" + Array(repeating: "*a\(n - 1)", count: 10).joined(separator: ", ") + "]\n"
        }.joined()

    @Test func billionLaughsIsRefusedWithItsRuleID() throws {
        #expect(Self.laughs.utf8.count < 700)
        let (skill, found, json) = try parse(skill(front: Self.laughs))
        #expect(found == ["1:frontmatter.too-large"])
        #expect(skill.name == "s")
        #expect(skill.description == "d")
        // Only the plain lines are kept: nothing expanded is stored or printed.
        #expect(json < 10_000)
    }

    @Test func mergeKeysTwentyDeepAreRefused() throws {
        let merges =
            "m0: &m0 {k: v}\n"
            + (1...20).map { n in
                "m\(n): &m\(n)\n  <<: *m\(n - 1)\n  x\(n): [*m\(n - 1), *m\(n - 1)]\n"
            }.joined()
        let (_, found, json) = try parse(skill(front: merges))
        #expect(found == ["1:frontmatter.too-large"])
        #expect(json < 10_000)
    }

    @Test(arguments: ["? *a5\n: x\n", "*a5 : x\n", "? [*a4, *a4]\n: x\n", "k: {[*a3]: x}\n"])
    func aliasKeysAreRefusedBeforeComposing(_ key: String) throws {
        let front = Self.laughs.replacingOccurrences(of: "a9: &a9", with: "b9: &b9") + key
        let (skill, found, _) = try parse(skill(front: front))
        #expect(found == ["1:frontmatter.alias-key"])
        #expect(skill.name == "s")
    }

    @Test func aFewAliasesAreFine() throws {
        let (skill, found, _) = try parse(skill(front: "base: &base swift\nother: *base\nlist: [*base, *base]\n"))
        #expect(found == [])
        #expect(skill.frontmatter.string("other") == "swift")
        #expect(skill.frontmatter.field("list")?.value == .list([.string("swift"), .string("swift")]))
    }

    @Test func frontmatterOverSixtyFourKilobytesIsRefused() throws {
        let long = (0..<2_000).map { "key\($0): " + String(repeating: "x", count: 30) + "\n" }.joined()
        #expect(long.utf8.count > FrontmatterLimits.maxBytes)
        let (skill, found, _) = try parse(skill(front: long))
        #expect(found == ["1:frontmatter.too-large"])
        #expect(skill.frontmatter.fields.count == 2_002)
    }

    @Test func frontmatterNestedFiveHundredDeepIsCutAndStillEncodes() throws {
        let deep = "x: " + String(repeating: "[", count: 508) + String(repeating: "]", count: 508) + "\n"
        let (_, found, json) = try parse(skill(front: deep))
        #expect(found == ["4:frontmatter.too-deep"])
        #expect(json < 10_000)
    }

    @Test func thousandNestedTaskListsGiveOutputLinearInTheirSize() throws {
        let list = (0..<1_000).map { String(repeating: "  ", count: $0) + "- [ ] task \($0)\n" }.joined()
        let text = skill(front: "", body: "# Notes\n\n" + list)
        let (skill, _, json) = try parse(text)
        let checklists = skill.entries.compactMap { entry -> Checklist? in
            if case .checklist(let c) = entry.details { return c } else { return nil }
        }
        // One checklist holds every item once.
        #expect(checklists.count == 1)
        #expect(checklists.first?.items.map(\.text) == (0..<1_000).map { "task \($0)" })
        #expect(json < 4 * text.utf8.count)
    }

    @Test func sixteenThousandDuplicateHeadingsGetNumberedSlugs() throws {
        let body = "# T\n\n" + String(repeating: "## Setup\n\ntext\n\n", count: 16_000) + "## Setup 2\n\n## Setup\n"
        let (skill, _, _) = try parse(skill(front: "", body: body))
        let ids = skill.entries.map(\.id).filter { $0.hasPrefix("s/SKILL#t/") }
        #expect(ids.count == 16_002)
        #expect(Set(ids).count == ids.count)
        #expect(ids.prefix(3) == ["s/SKILL#t/setup", "s/SKILL#t/setup-2", "s/SKILL#t/setup-3"])
        #expect(ids.suffix(2) == ["s/SKILL#t/setup-2-2", "s/SKILL#t/setup-16001"])
    }

    @Test func headingOfTwoHundredThousandNumberWords() throws {
        let heading = "# " + Array(repeating: "12", count: 200_000).joined(separator: " ") + " checklist\n\n- [ ] check it\n"
        let (skill, _, _) = try parse(skill(front: "", body: heading))
        #expect(skill.entries.map(\.kind) == [.skill, .checklist])
        #expect(Markers.words("1. 2) 3 - Pitfalls here") == ["pitfalls", "here"])
    }

    @Test func hundredThousandLineTreeKeepsEveryNodeInOrder() throws {
        let lines = (0..<100_000).map { "├── q\($0)? → use x\n" }.joined()
        let (skill, _, _) = try parse(skill(front: "", body: "# Decide\n\n```text\nStart?\n" + lines + "```\n"))
        guard case .decisionTree(let tree) = skill.entries.last?.details else {
            Issue.record("no decision tree")
            return
        }
        #expect(tree.nodes.map(\.label) == ["Start?"])
        let children = tree.nodes.first?.children ?? []
        #expect(children.count == 100_000)
        #expect(children.first?.label == "q0? → use x")
        #expect(children.last?.label == "q99999? → use x")
        #expect(children.map(\.line).elementsEqual(10..<100_010))
    }

    @Test func nestedTreeKeepsChildrenInOrder() {
        let lines: [Substring] = [
            "Is it a view?", "├── Yes → use @State", "│   ├── owned? → @State", "│   └── passed? → @Binding", "└── No → use @Observable",
        ]
        let nodes = TreeReader.nodes(of: lines, firstLine: 1)
        #expect(nodes.count == 1)
        #expect(nodes[0].children.map(\.label) == ["Yes → use @State", "No → use @Observable"])
        #expect(nodes[0].children[0].children.map(\.label) == ["owned? → @State", "passed? → @Binding"])
    }

    @Test func echoedValuesAreBounded() {
        #expect(Echo.bounded(String(repeating: "n", count: 5_000)) == String(repeating: "n", count: 80) + "…")
        #expect(Echo.bounded("short") == "short")
    }
}

extension HostileInputTests {
    @Test func invalidNameIsEchoedInEightyCharacters() {
        let name = String(repeating: "Bad_", count: 1_000)
        var diagnostics: [Diagnostic] = []
        SpecRules.check(
            Frontmatter(fields: [FrontmatterField(key: "name", value: .string(name), line: 2)], lines: 1...4), folder: "s",
            path: "s/SKILL.md", diagnostics: &diagnostics)
        let messages = diagnostics.filter { $0.id == .nameInvalid }.map(\.message)
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("name '" + String(name.prefix(80)) + "…' must be") == true)
    }
}
