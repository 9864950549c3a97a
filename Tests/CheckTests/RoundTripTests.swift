import Foundation
import SkillParser
import Testing

@testable import SkillCheck

/// The bundled skills' own code: each ❌ block is found by its own anti-pattern, ✅ code gives
/// no finding at all.
@Suite struct RoundTripTests {
    private static let skills = SkillLoader.load(folders: SkillFinder.skillFolders(in: bundledSkills), root: bundledSkills)

    @Test func bundledSkillsAreLoaded() {
        #expect(Self.skills.count == 5)
    }

    @Test func eachMistakeIsFoundByItsOwnAntiPattern() throws {
        let checker = Checkers.bundled
        var checked = 0
        for skill in Self.skills {
            for (id, records) in CodeRecord.records(for: skill.entries) {
                for record in records where record.role == .mistake && checker.signatures.ids.contains(id) {
                    let entry = try #require(skill.entries.first { $0.id == id })
                    let block = try #require(
                        entry.code.first { CodeSketch(CodeRecord.split($0.code).bad, language: .swift).words == record.sketch.words })
                    let findings = checker.review(CodeRecord.split(block.code).bad, language: .swift, path: "x.swift").findings
                    #expect(findings.contains { $0.id == id && $0.score == 1 }, "\(id) not found in its own code: \(findings.map(\.id))")
                    checked += 1
                }
            }
        }
        #expect(checked == checker.signatures.count)
        #expect(checked >= 12)
    }

    @Test func goodCodeGivesNoFinding() {
        let checker = Checkers.bundled
        var checked = 0
        for skill in Self.skills {
            for entry in skill.entries where entry.kind == .example {
                for block in entry.code where block.verdict == .good {
                    guard let language = SourceLanguage(fence: block.language) else { continue }
                    let findings = checker.review(block.code, language: language, path: "good.swift").findings
                    #expect(findings.isEmpty, "\(entry.id) matches \(findings.map(\.id))")
                    checked += 1
                }
            }
        }
        #expect(checked >= 10)
    }
}
