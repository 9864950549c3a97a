import Foundation
import SkillParser
import Testing

@testable import SkillIndex

/// The readers' freshness rule (docs/search.md, "Freshness"): a check trusted for a short window,
/// then a bounded check of the folders and the recently changed documents, and a full check at
/// least every `fullCheckSeconds`. The clock is the test's, so nothing sleeps.
@Suite struct FreshnessTests {
    let rule = FreshnessRule(trustSeconds: 2, fullCheckSeconds: 30)
    /// More documents than a bounded check stats, so that one of them is not.
    static let documentCount = Freshness.recentCount + 6

    /// One skill, `one`, with ``documentCount`` reference documents, `ref-00.md` made the oldest;
    /// and a second skill, `two`. Built once.
    func sandbox() throws -> (Sandbox, SkillIndex) {
        let box = try Sandbox(fixtures: nil)
        try box.write("---\nname: one\ndescription: The first skill.\n---\n# One\n\nAbout one.\n", to: "one/SKILL.md")
        try box.write("---\nname: two\ndescription: The second skill.\n---\n# Two\n\nAbout two.\n", to: "two/SKILL.md")
        for i in 0..<Self.documentCount {
            try box.write("# Reference \(i)\n\nPlain words about reference \(i).\n", to: reference(i))
        }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)],
            ofItemAtPath: box.skills.appendingPathComponent(reference(0)).path)
        let index = box.index()
        try index.refresh()
        return (box, index)
    }

    func reference(_ i: Int) -> String { String(format: "one/references/ref-%02d.md", i) }

    /// Rewrites a file where it is (truncate and write, as many editors save), so that only
    /// its own time changes, not its folder's.
    func editInPlace(_ box: Sandbox, _ path: String, _ text: String) throws {
        let url = box.skills.appendingPathComponent(path)
        let folder = try #require(FileStamp.of(url.deletingLastPathComponent().path))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        try box.bumpModificationDate(path)
        #expect(FileStamp.of(url.deletingLastPathComponent().path) == folder)
    }

    /// `seconds` after now: the time a check believes it is.
    func at(_ seconds: Double) -> () -> Int64 {
        { Freshness.now() + Int64(seconds * 1e9) }
    }

    @Test func withinTheWindowAnEditIsUnseenAfterItItIsSeen() throws {
        let (box, index) = try sandbox()
        try editInPlace(box, reference(Self.documentCount - 2), "# Reference 68\n\nNow about quokkas.\n")
        index.clock = at(0)
        #expect(try index.refresh(freshness: rule).changed == false)
        #expect(try index.search("quokkas").results.isEmpty)
        index.clock = at(3)
        #expect(try index.refresh(freshness: rule).updated.map(\.name) == ["one"])
        #expect(try index.search("quokkas").results.map(\.id) == ["one/references/ref-68#reference-68"])
    }

    @Test func theDefaultRuleAlwaysChecksEverything() throws {
        let (box, index) = try sandbox()
        try editInPlace(box, reference(0), "# Reference 0\n\nNow about quokkas.\n")
        #expect(try index.isStale())
        #expect(try index.refresh().updated.map(\.name) == ["one"])
        #expect(try index.search("quokkas").results.map(\.id) == ["one/references/ref-00#reference-0"])
    }

    @Test func aNewFileIsSeenOnceTheWindowHasPassed() throws {
        let (box, index) = try sandbox()
        try box.write("# Wombats\n\nAbout wombats.\n", to: "one/references/new.md")
        index.clock = at(3)
        #expect(try index.refresh(freshness: rule).updated.map(\.name) == ["one"])
        #expect(try index.search("wombats").results.map(\.id) == ["one/references/new#wombats"])
    }

    /// A skill folder removed (or added: `skill install`, `uninstall`) changes its root's time,
    /// which is statted even inside the window (issue 27): seen by the very next call.
    @Test func aDeletedSkillFolderIsSeenAtOnceThroughItsRootsTime() throws {
        let (box, index) = try sandbox()
        try FileManager.default.removeItem(at: box.skills.appendingPathComponent("two"))
        index.clock = at(1)
        #expect(try index.refresh(freshness: rule).removed.map(\.name) == ["two"])
        #expect(try index.skills().map(\.name) == ["one"])
    }

    @Test func anOldFileEditedInPlaceIsSeenByTheNextFullCheck() throws {
        let (box, index) = try sandbox()
        try editInPlace(box, reference(0), "# Reference 0\n\nNow about quokkas.\n")
        // The bounded check stats the folders and the recent documents, not this one.
        index.clock = at(3)
        #expect(try index.refresh(freshness: rule).changed == false)
        index.clock = at(20)
        #expect(try index.refresh(freshness: rule).changed == false)
        // The last full check (the build) is 31 s old: this check is a full one.
        index.clock = at(31)
        #expect(try index.refresh(freshness: rule).updated.map(\.name) == ["one"])
        #expect(try index.search("quokkas").results.map(\.id) == ["one/references/ref-00#reference-0"])
    }

    @Test func aRecentFileEditedInPlaceIsSeenByTheBoundedCheck() throws {
        let (box, index) = try sandbox()
        try editInPlace(box, reference(Self.documentCount - 1), "# Last\n\nNow about quokkas.\n")
        index.clock = at(3)
        #expect(try index.refresh(freshness: rule).updated.map(\.name) == ["one"])
        // Once indexed, an edited file is among the recent ones: edited again, the bounded
        // check sees it.
        // The last full check (the build at 3 s) is 31 s old: a full check.
        try editInPlace(box, reference(0), "# Reference 0\n\nNow about quokkas.\n")
        index.clock = at(34)
        #expect(try index.refresh(freshness: rule).updated.map(\.name) == ["one"])
        try editInPlace(box, reference(0), "# Reference 0\n\nNow about numbats.\n")
        index.clock = at(37)
        #expect(try index.refresh(freshness: rule).updated.map(\.name) == ["one"])
        #expect(try index.search("numbats").results.map(\.id) == ["one/references/ref-00#reference-0"])
    }

    @Test func aCheckThatFoundTheIndexFreshIsTrustedForTheWindow() throws {
        let (box, index) = try sandbox()
        index.clock = at(3)
        #expect(try index.refresh(freshness: rule).changed == false)
        // Trusted from the check at 3 s until 5 s: a new file is not looked for.
        try box.write("# Wombats\n\nAbout wombats.\n", to: "one/references/new.md")
        index.clock = at(4.5)
        #expect(try index.refresh(freshness: rule).changed == false)
        index.clock = at(5.5)
        #expect(try index.refresh(freshness: rule).updated.map(\.name) == ["one"])
    }

    @Test func aReadersCheckIsRecordedBesideTheIndexAndAGarbledRecordIsIgnored() throws {
        let (box, index) = try sandbox()
        let checks = box.indexURL.path + Freshness.checksSuffix
        index.clock = at(3)
        #expect(try index.refresh(freshness: rule).changed == false)
        let fields = try String(contentsOfFile: checks, encoding: .utf8).split(separator: " ")
        #expect(fields.count == 2)
        try editInPlace(box, reference(0), "# Reference 0\n\nNow about quokkas.\n")
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: checks))
        // Without the readers' record, the build's (at 0 s) says a full check is not due.
        index.clock = at(4)
        #expect(try index.refresh(freshness: rule).changed == false)
        index.clock = at(31)
        #expect(try index.refresh(freshness: rule).updated.map(\.name) == ["one"])
    }

    @Test func aClockBeforeTheLastCheckChecksEverything() throws {
        let (box, index) = try sandbox()
        try editInPlace(box, reference(0), "# Reference 0\n\nNow about quokkas.\n")
        index.clock = at(-60)
        #expect(try index.refresh(freshness: rule).updated.map(\.name) == ["one"])
    }

    @Test func theWindowComesFromTheEnvironment() {
        #expect(FreshnessRule.reader(environment: [:]) == FreshnessRule(trustSeconds: 2, fullCheckSeconds: 30))
        #expect(FreshnessRule.reader(environment: ["SKILL_TRUST_SECONDS": "0"]) == .everything)
        #expect(FreshnessRule.reader(environment: ["SKILL_TRUST_SECONDS": "0.5"]) == FreshnessRule(trustSeconds: 0.5, fullCheckSeconds: 30))
        #expect(
            FreshnessRule.reader(environment: ["SKILL_TRUST_SECONDS": "120"]) == FreshnessRule(trustSeconds: 120, fullCheckSeconds: 120))
        #expect(FreshnessRule.reader(environment: ["SKILL_TRUST_SECONDS": "soon"]) == FreshnessRule(trustSeconds: 2, fullCheckSeconds: 30))
    }
}
