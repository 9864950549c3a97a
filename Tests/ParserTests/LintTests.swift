import Foundation
import Testing

@testable import SkillParser

/// `skill lint`'s rules on Fixtures/lint: a clean skill and a messy one that breaks each rule.
@Suite struct LintTests {
    static let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("lint")

    static func lint(_ name: String) throws -> LintReport {
        // Paths shown relative to the fixtures (no chdir: tests run in parallel).
        var report = try LintReport.lint(paths: [root.appendingPathComponent(name).path])
        report.diagnostics = report.diagnostics.map { d in
            var d = d
            d.path = String(d.path.dropFirst(root.path.count + 1))
            return d
        }
        return report
    }

    @Test func cleanSkillScores100() throws {
        let report = try Self.lint("clean")
        #expect(report.diagnostics.isEmpty)
        #expect(report.skills.map(\.score) == [100])
        #expect(!report.hasErrors)
    }

    @Test func messySkillBreaksEveryRule() throws {
        let report = try Self.lint("messy")
        let p = "messy/messy-skill"
        #expect(
            report.diagnostics.map(\.formatted) == [
                "\(p)/SKILL.md:3:1: warning: the description does not say when to use the skill; agents pick skills by it, so add 'Use when …' [lint.description.no-trigger]",
                "\(p)/SKILL.md:3:1: warning: the description has 1 word; say what the skill does and when to use it in one or two sentences [lint.description.too-short]",
                "\(p)/SKILL.md:7:61: error: the link target 'references/missing.md#top' does not exist in the skill; fix the path (relative to this file) or add the file [lint.link.broken]",
                "\(p)/SKILL.md:10:1: warning: the section 'Empty section' is empty; write its content or remove the heading [lint.section.empty]",
                "\(p)/SKILL.md:14:1: note: this code fence has no language; add one (```swift, ```bash, or ```text for plain text) so it is highlighted and indexed [lint.fence.no-language]",
                "\(p)/SKILL.md:22:1: warning: the anti-pattern 'Padding cells with spaces by hand.' does not show what to do instead; add a ✅ example or an 'Instead, …' sentence [lint.anti-pattern.no-fix]",
                "\(p)/SKILL.md:26:1: warning: the code fence opened here never closes, so line 27 reads as code; add a closing ``` line [markdown.unclosed-fence]",
                "\(p)/references/guide.md:3:23: warning: 'references/details.md' is reached only through 'references/guide.md', two levels from SKILL.md; agents may read it partially or not at all, so link it from SKILL.md [lint.reference.too-deep]",
            ])
        #expect(report.skills.map(\.score) == [30])
        #expect(report.hasErrors)
    }

    @Test func longSkillFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)/long-skill")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let body = (1...600).map { "Line \($0) of instructions that go on and on to fill the token budget quickly." }.joined(
            separator: "\n")
        try "---\nname: long-skill\ndescription: A long skill for testing. Use when testing the linter's length rules.\n---\n\(body)\n"
            .write(to: folder.appendingPathComponent("SKILL.md"), atomically: true, encoding: .utf8)
        let ids = SkillLinter.lint(SkillTarget(folder: folder, displayPath: "long-skill")).diagnostics.map(\.id)
        #expect(ids == [.lintTooManyTokens, .lintTooManyLines])
    }

    @Test func scoreCapsEachRule() {
        let notes = (1...10).map { Diagnostic(.note, .lintFenceNoLanguage, "", path: "", line: $0) }
        #expect(SkillLinter.score(notes) == 94)
        #expect(SkillLinter.score([Diagnostic(.error, .lintBrokenLink, "", path: "", line: 1)]) == 80)
    }

    @Test func descriptionTriggers() {
        #expect(SkillLinter.saysWhen("Formats tables. Use when the user asks."))
        #expect(SkillLinter.saysWhen("Builds apps; use it for SwiftUI work."))
        #expect(!SkillLinter.saysWhen("Formats tables."))
    }
}
