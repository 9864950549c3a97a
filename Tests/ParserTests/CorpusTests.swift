import Foundation
import SkillParser
import TestSupport
import Testing

/// Every real skill in ../shared/corpus (128) parses; the odd files listed in its README get exactly
/// the diagnostics they deserve, and the valid-but-unusual ones none.
@Suite struct CorpusTests {
    static let report = try? ParseReport.parse(path: corpus.path)

    @Test(.needsCorpus) func everySkillParsesWithEntriesInsideItsFiles() throws {
        let report = try #require(Self.report)
        #expect(report.skills.count == 128)
        for skill in report.skills {
            #expect(skill.entries.count > 1, "\(skill.path) has no entries")
            let lines = Dictionary(uniqueKeysWithValues: skill.documents.map { ($0.path, $0.lineCount) })
            for entry in skill.entries {
                let count = try #require(lines[entry.source.path], "\(entry.id) points at an unknown file")
                #expect(
                    1 <= entry.source.line && entry.source.line <= entry.source.endLine && entry.source.endLine <= count,
                    "\(entry.id) lines \(entry.source.line)-\(entry.source.endLine) outside 1-\(count)")
            }
            #expect(Set(skill.entries.map(\.id)).count == skill.entries.count, "\(skill.path) has duplicate ids")
        }
    }

    @Test(.needsCorpus) func onlyTheDefectiveFilesGetDiagnostics() throws {
        let report = try #require(Self.report)
        // allowed-tools as a YAML list: accepted with a warning, as agents accept it (53 skills).
        let lists = report.diagnostics.filter { $0.id == .allowedToolsList }
        let r = "rshankras__claude-code-apple-skills/skills"
        #expect(
            report.diagnostics.filter { $0.id != .allowedToolsList }.map { "\($0.path):\($0.line): \($0.id)" } == [
                "anthropics__skills/skills/claude-api/SKILL.md:3: frontmatter.description.too-long",
                "makgunay__claude-swift-skills/testing-swift/SKILL.md:3: frontmatter.value-cut-by-comment",
                "openai__skills/skills/.curated/notion-knowledge-capture/examples/how-to-guide.md:110: markdown.unclosed-fence",
                "openai__skills/skills/.curated/notion-research-documentation/examples/technical-investigation.md:214: markdown.unclosed-fence",
                "\(r)/ios/SKILL.md:2: frontmatter.name.mismatch",
                "\(r)/macos/SKILL.md:2: frontmatter.name.mismatch",
                "\(r)/performance/profiling/SKILL.md:2: frontmatter.name.mismatch",
                "\(r)/swift/SKILL.md:2: frontmatter.name.mismatch",
                "\(r)/swift/concurrency/SKILL.md:2: frontmatter.name.mismatch",
                "\(r)/swiftdata/inheritance/SKILL.md:2: frontmatter.name.mismatch",
                "\(r)/swiftui/webkit/SKILL.md:2: frontmatter.name.mismatch",
                "\(r)/testing/flow-walkthrough/SKILL.md:120: markdown.unclosed-fence",
                "\(r)/testing/tdd-bug-fix/SKILL.md:248: markdown.unclosed-fence",
                "\(r)/testing/tdd-feature/SKILL.md:311: markdown.unclosed-fence",
                "\(r)/testing/test-contract/SKILL.md:304: markdown.unclosed-fence",
                "\(r)/testing/test-data-factory/SKILL.md:346: markdown.unclosed-fence",
            ])
        // Every SKILL.md of that repository gives `allowed-tools` as a YAML list.
        #expect(lists.count == 53)
        #expect(lists.allSatisfy { $0.path.hasPrefix(r + "/") && $0.path.hasSuffix("/SKILL.md") && $0.line == 4 })
    }

    @Test(.needsCorpus) func hiddenFoldersAreScanned() throws {
        let report = try #require(Self.report)
        let hidden = report.skills.filter {
            $0.path.contains("/.curated/") || $0.path.contains("/.system/") || $0.path.contains("/.experimental/")
        }
        #expect(hidden.count >= 3)
    }

    @Test(.needsCorpus) func treeOutsideAFenceIsRead() throws {
        let report = try #require(Self.report)
        let path = "makgunay__claude-swift-skills/app-prd-architect/references/architecture-template.md"
        let skill = try #require(report.skills.first { $0.documents.contains { $0.path == path } })
        let entries = skill.entries.filter { $0.source.path == path }
        #expect(!entries.isEmpty)
        #expect(!skill.diagnostics.contains { $0.path == path })
    }

    @Test(.needsCorpus) func fenceOpenedOnAListMarkerLineIsClosedCode() throws {
        let report = try #require(Self.report)
        let path = "anthropics__skills/skills/claude-api/shared/managed-agents-onboarding.md"
        let skill = try #require(report.skills.first { $0.documents.contains { $0.path == path } })
        let example = try #require(skill.entries.first { $0.source.path == path && $0.kind == .example && $0.source.line == 61 })
        #expect(example.code.first?.language == "sh")
        #expect(example.code.first?.code.hasPrefix("AGENT_ID=$(ant beta:agents create") == true)
        #expect(!skill.diagnostics.contains { $0.path == path })
    }

    @Test(.needsCorpus) func testingSwiftHasAntiPatternsExamplesAndTheCutDescription() throws {
        let report = try ParseReport.parse(path: corpus.appendingPathComponent("makgunay__claude-swift-skills/testing-swift").path)
        let kinds = Set(report.skills[0].entries.map(\.kind))
        #expect(kinds.isSuperset(of: [.skill, .section, .antiPattern, .example, .table]))
        #expect(report.diagnostics.map(\.id) == [.valueCutByComment])
        #expect(report.skills[0].description == "Swift Testing framework (@Test,")
    }
}
