import Foundation
import SkillParser
import TestSupport
import Testing

/// Bad input gives diagnostics and a best-effort model: never a crash, a hang or a stack overflow.
/// The time limits only guard against hangs; speed is measured in Benchmarks/.
@Suite(.timeLimit(.minutes(5))) struct BadInputTests {
    /// Parses `data` as the SKILL.md of a skill named `s` and returns the diagnostics' rule ids and lines.
    func diagnose(_ data: Data) throws -> (skill: Skill, found: [String]) {
        let folder = try TemporaryFolder()
        try folder.write("s/SKILL.md", data)
        let skill = loadSkill(folder.url.appendingPathComponent("s"))
        return (skill, skill.diagnostics.map { "\($0.line):\($0.id)" })
    }

    func diagnose(_ text: String) throws -> (skill: Skill, found: [String]) {
        try diagnose(Data(text.utf8))
    }

    @Test func emptyFile() throws {
        let (skill, found) = try diagnose("")
        #expect(found == ["1:document.empty", "1:frontmatter.missing"])
        #expect(skill.entries.map(\.kind) == [.skill])
    }

    @Test func noFrontmatter() throws {
        let (skill, found) = try diagnose("# Title\n\nBody text.\n")
        #expect(found == ["1:frontmatter.missing"])
        #expect(skill.name == "s")
        #expect(skill.entries.map(\.id) == ["s", "s/SKILL#title"])
    }

    @Test func yamlSyntaxErrorKeepsWhatCanBeRead() throws {
        let (skill, found) = try diagnose("---\nname: s\ndescription: [unclosed\n---\n# T\n")
        #expect(found == ["4:frontmatter.yaml-syntax"])
        #expect(skill.frontmatter.name == "s")
        #expect(skill.description == "[unclosed")
    }

    @Test func unquotedColonIsASyntaxError() throws {
        let (_, found) = try diagnose("---\nname: s\ndescription: Use when: things happen\n---\n# T\n")
        #expect(found == ["3:frontmatter.yaml-syntax"])
    }

    @Test func frontmatterNotClosed() throws {
        let (skill, found) = try diagnose("---\nname: s\ndescription: d\n\n# Title\n\nBody.\n")
        #expect(found == ["1:frontmatter.unclosed"])
        #expect(skill.description == "d")
        #expect(skill.entries.map(\.id) == ["s", "s/SKILL#title"])
        // The heading that ends it is the body's first line, not lost with the YAML.
        let (right, _) = try diagnose("---\nname: s\ndescription: d\n# Title\n\nBody.\n")
        #expect(right.entries.map(\.id) == ["s", "s/SKILL#title"])
    }

    @Test func frontmatterNotClosedBeforeACodeBlockThatHoldsOne() throws {
        // The only later `---` lines belong to an example inside a code block: reading the YAML
        // up to them would swallow every section before it.
        let text = "---\nname: s\ndescription: d\n\n# Title\n\n## Setup\n\nInstall it.\n\n## README\n\n```yaml\n---\ntitle: x\n---\n```\n"
        let (skill, found) = try diagnose(text)
        #expect(found == ["1:frontmatter.unclosed"])
        #expect(
            skill.diagnostics.first?.message
                == "the frontmatter opened on line 1 is never closed before the code block on line 13; add a '---' line after its last key (read up to line 3 as YAML)"
        )
        #expect(skill.description == "d")
        #expect(
            skill.entries.map(\.id) == [
                "s", "s/SKILL#title", "s/SKILL#title/setup", "s/SKILL#title/readme", "s/SKILL#title/readme~example-1",
            ])
    }

    @Test func frontmatterThatIsNotAMap() throws {
        let (_, found) = try diagnose("---\n- a\n- b\n---\n# T\n")
        #expect(found == ["2:frontmatter.not-a-map", "1:frontmatter.name.missing", "1:frontmatter.description.missing"])
    }

    @Test func crlfLineEnds() throws {
        let (skill, found) = try diagnose("---\r\nname: s\r\ndescription: d\r\n---\r\n# Title\r\n\r\nBody.\r\n")
        #expect(found == [])
        #expect(skill.description == "d")
        #expect(skill.entries.last?.source == SourceSpan(path: "s/SKILL.md", line: 5, endLine: 7))
    }

    @Test func invalidUTF8() throws {
        var data = Data("---\nname: s\ndescription: d\n---\n# Title\n".utf8)
        data += Data([0x62, 0xFF, 0xFE, 0x0A])
        let (skill, found) = try diagnose(data)
        #expect(found == ["6:encoding.invalid-utf8"])
        #expect(skill.entries.last?.text == "b\u{FFFD}\u{FFFD}")
        #expect(skill.entries.last?.markdown == "# Title\nb\u{FFFD}\u{FFFD}")
    }

    @Test func nulBytes() throws {
        let (skill, found) = try diagnose("---\nname: s\ndescription: d\n---\n# Ti\0tle\n")
        #expect(found == ["5:encoding.nul-byte"])
        #expect(skill.entries.last?.title == "Ti\u{FFFD}tle")
    }

    @Test func fiftyMegabyteFile() throws {
        let paragraph = String(repeating: "Plain words about @State and NavigationStack in a long paragraph. ", count: 20) + "\n\n"
        var text = "---\nname: s\ndescription: d\n---\n# Big\n\n"
        var index = 0
        while text.utf8.count < 50 << 20 {
            text += "## Part \(index)\n\n" + String(repeating: paragraph, count: 30)
            index += 1
        }
        let (skill, found) = try diagnose(text)
        // Only the first 4 MB are read, up to the last line end within them.
        let bytes = Array(text.utf8)
        let read = bytes[..<(bytes[..<DocumentParser.largeFileBytes].lastIndex(of: 0x0A)! + 1)]
        let linesRead = read.filter { $0 == 0x0A }.count
        let partsRead = String(decoding: read, as: UTF8.self).components(separatedBy: "## Part ").count - 1
        #expect(index > partsRead)
        #expect(found == ["\(linesRead):document.too-large"])
        #expect(skill.entries.count == partsRead + 2)
        #expect((linesRead - 1...linesRead).contains(skill.entries.map(\.source.endLine).max() ?? 0))
    }

    @Test(arguments: ["- ", "> ", "1. "])
    func tenThousandNestedLevels(_ marker: String) throws {
        let (skill, found) = try diagnose(
            "---\nname: s\ndescription: d\n---\n# Deep\n" + String(repeating: marker, count: 10_000) + "bottom\n")
        #expect(found == ["6:markdown.deep-nesting"])
        #expect(skill.entries.map(\.id) == ["s", "s/SKILL#deep"])
        #expect(skill.entries.last?.text.hasSuffix("bottom") == true)
    }

    @Test func tenThousandNestedLevelsUnderADecisionHeading() throws {
        let (skill, found) = try diagnose(
            "---\nname: s\ndescription: d\n---\n# Which one?\n" + String(repeating: "- ", count: 10_000) + "why?\n")
        #expect(found == ["6:markdown.deep-nesting"])
        guard case .decisionTree(let tree) = try #require(skill.entries.last).details else {
            Issue.record("not a decision tree")
            return
        }
        // The nesting is capped, so encoding and releasing the tree never recurses 10,000 deep.
        var depth = 0
        var level = tree.nodes
        while let first = level.first {
            depth += 1
            level = first.children
        }
        #expect(depth == 32)
        _ = try JSONEncoder().encode(skill)
    }

    @Test func hundredThousandHeadings() throws {
        let headings = (1...100_000).map { "## Heading \($0)\n" }.joined()
        let (skill, found) = try diagnose("---\nname: s\ndescription: d\n---\n" + headings)
        #expect(found == ["1:document.too-many-headings"])
        #expect(skill.entries.count == 100_001)
        #expect(skill.entries.last?.source == SourceSpan(path: "s/SKILL.md", line: 100_004, endLine: 100_004))
    }

    @Test func unclosedFenceOnAListMarkerLine() throws {
        let (skill, found) = try diagnose("---\nname: s\ndescription: d\n---\n# T\n\n- ```bash\n  echo hi\n")
        #expect(found == ["7:markdown.unclosed-fence"])
        #expect(skill.entries.count == 3)
    }

    /// Prompt tags that never close, or close what is not open, cost linear time; pairs nested
    /// deeper than six become level-6 headings.
    @Test func unbalancedAndDeepPromptTags() throws {
        let unclosed = String(repeating: "<step_a>\n\n", count: 30_000) + String(repeating: "</step_b>\n\n", count: 30_000)
        let (flat, _) = try diagnose("---\nname: s\ndescription: d\n---\n" + unclosed)
        #expect(flat.entries.map(\.title) == ["s", "s"])  // the skill, and its body as one entry
        let deep = (1...10).map { "<level_\($0)>\n\ntext \($0)\n" }.joined() + (1...10).reversed().map { "</level_\($0)>\n" }.joined()
        let (nested, _) = try diagnose("---\nname: s\ndescription: d\n---\n" + deep)
        #expect(nested.entries.map(\.breadcrumb.count) == [0] + [1, 2, 3, 4, 5] + Array(repeating: 5, count: 5))
        #expect(nested.entries.last?.title == "Level 10")
    }

    /// The message counts the lines read as code, and has no range when there are none.
    @Test(arguments: [
        ("# T\n\n```swift", "the code fence opened here, on the document's last line, never closes; add a closing ``` line or remove it"),
        ("# T\n\n~~~~\nlet a = 1\n", "the code fence opened here never closes, so line 8 reads as code; add a closing ~~~~ line"),
        ("# T\n\n```\na\nb\n", "the code fence opened here never closes, so lines 8-9 read as code; add a closing ``` line"),
    ])
    func unclosedFenceMessage(body: String, message: String) throws {
        let (skill, _) = try diagnose("---\nname: s\ndescription: d\n---\n" + body)
        #expect(skill.diagnostics.map(\.message) == [message])
    }

    @Test func descriptionOverTheLimit() throws {
        let (_, found) = try diagnose("---\nname: s\ndescription: |-\n  " + String(repeating: "x", count: 1025) + "\n---\n# T\n")
        #expect(found == ["3:frontmatter.description.too-long"])
    }

    @Test func nameRules() throws {
        #expect(try diagnose("---\nname: Bad--Name\ndescription: d\n---\n").found == ["2:frontmatter.name.invalid"])
        #expect(try diagnose("---\nname: other\ndescription: d\n---\n# T\n").found == ["2:frontmatter.name.mismatch"])
        #expect(try diagnose("---\nname: s\ndescription: d\nmetadata: [a]\n---\n# T\n").found == ["4:frontmatter.metadata.not-strings"])
    }
}
