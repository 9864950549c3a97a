import SkillParser
import Testing

@testable import SkillCheck

private func code(_ id: String, skill: String, _ source: String, mistake: Bool = false, fix: String? = nil) -> IndexedCode {
    let record =
        mistake
        ? CodeRecord(
            role: .mistake, sketch: CodeSketch(source, language: .swift), why: "Why: it hurts.", fix: fix.map { _ in id + "~fix" },
            fixSketch: fix.map { CodeSketch($0, language: .swift) }, fixCode: fix ?? "")
        : CodeRecord(role: .code, sketch: CodeSketch(source, language: .swift))
    return IndexedCode(
        id: id, title: "Title of \(id)", skill: skill, source: SourceSpan(path: "\(skill)/SKILL.md", line: 7, endLine: 9), record: record)
}

/// Two skills whose ordinary code uses the framework words the mistake is made of.
private let background = [
    code("a/SKILL#one~example-1", skill: "a", "let f = DateFormatter()\nf.dateStyle = .short\nText(f.string(from: d))"),
    code("b/SKILL#two~example-1", skill: "b", "struct V: View { var body: some View { Text(DateFormatter().string(from: d)) } }"),
    code("b/SKILL#three~example-1", skill: "b", "static let f = DateFormatter()\nText(date, format: .dateTime)"),
    code("a/SKILL#four~example-1", skill: "a", "struct W: View { let date: Date\n var body: some View { Text(date, format: .dateTime) } }"),
]

private let mistake = code(
    "a/SKILL#formatter-in-body", skill: "a",
    """
    var body: some View {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        return Text(formatter.string(from: date))
    }
    """, mistake: true, fix: "static let style = Date.FormatStyle.dateTime\nvar body: some View { Text(date, format: Self.style) }")

@Suite struct SignatureSetTests {
    @Test func findsTheMistakeWithOtherNamesAndReportsItsParts() throws {
        let set = SignatureSet(background + [mistake])
        #expect(set.count == 1)
        let findings = set.check(
            """
            import SwiftUI

            struct Receipt: View {
                let purchased: Date
                var body: some View {
                    let printer = DateFormatter()
                    printer.dateStyle = .medium
                    return Text(printer.string(from: purchased))
                }
            }
            """, language: .swift, path: "Receipt.swift")
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.path == "Receipt.swift")
        #expect(finding.id == "a/SKILL#formatter-in-body")
        #expect(finding.title == "Title of a/SKILL#formatter-in-body")
        #expect(finding.why == "Why: it hurts.")
        #expect(finding.fix == "a/SKILL#formatter-in-body~fix")
        #expect(finding.source == SourceSpan(path: "a/SKILL.md", line: 7, endLine: 9))
        // From the first matched trigram (`View { let`, which starts on the struct's line) to the last.
        #expect(finding.line == 3)
        #expect(finding.endLine == 8)
        #expect(finding.score == 1)
    }

    @Test func ordinaryCodeAndTheFixGiveNothing() {
        let set = SignatureSet(background + [mistake])
        #expect(
            set.check(
                "struct W: View { let date: Date\n var body: some View { Text(date, format: .dateTime) } }", language: .swift,
                path: "W.swift"
            ).isEmpty)
        #expect(
            set.check(
                "static let style = Date.FormatStyle.dateTime\nvar body: some View { Text(date, format: Self.style) }", language: .swift,
                path: "F.swift"
            ).isEmpty)
        #expect(set.check("", language: .swift, path: "Empty.swift").isEmpty)
        #expect(set.check("var body: some View { let formatter = DateFormatter() }", language: .python, path: "x.py").isEmpty)
    }

    @Test func codeThatAlsoHoldsTheFixIsNotReported() {
        let set = SignatureSet(background + [mistake])
        let both = """
            static let style = Date.FormatStyle.dateTime
            var body: some View { Text(date, format: Self.style) }
            var legacy: some View {
                let formatter = DateFormatter()
                formatter.dateStyle = .medium
                return Text(formatter.string(from: date))
            }
            """
        #expect(set.check(both, language: .swift, path: "Both.swift").isEmpty)
    }

    @Test func minScoreFiltersPartialMatches() {
        let set = SignatureSet(background + [mistake])
        let partial = "var body: some View {\n let formatter = DateFormatter()\n formatter.dateStyle = .medium\n return EmptyView() }"
        let low = set.check(partial, language: .swift, path: "P.swift", minScore: 0)
        #expect(low.count == 1)
        let score = low[0].score
        #expect(score > 0 && score < 1)
        #expect(set.check(partial, language: .swift, path: "P.swift", minScore: score + 0.01).isEmpty)
    }

    @Test func aMistakeTooShortToMatchIsNoSignature() {
        let set = SignatureSet(background + [code("a/SKILL#tiny", skill: "a", "x = 1", mistake: true)])
        #expect(set.count == 0)
    }

    @Test func calibrationScoresAboveTheSkillsOrdinaryCode() {
        #expect(SignatureSet.calibrated(1, 0) == 1)
        #expect(SignatureSet.calibrated(0.3, 0) == 0.3)
        #expect(SignatureSet.calibrated(0.2, 0.5) == 0)
        #expect(abs(SignatureSet.calibrated(0.675, 0.5) - 0.5) < 1e-9)
        #expect(SignatureSet.calibrated(1, 0.96) == 0)
    }
}
