import Foundation
import Testing

@testable import SkillIndex

/// The progress a build reports counts each skill once and ends at its total.
@Suite struct BuildProgressTests {
    @Test func aFirstBuildCountsEachSkillOnceAndEndsAtTheTotal() throws {
        let sandbox = try Sandbox()
        var seen: [BuildProgress] = []
        let report = try sandbox.index().refresh(progress: { seen.append($0) })
        #expect(report.skillCount == 2)
        #expect(seen.map { "\($0.skillsDone)/\($0.skillsTotal)" } == ["1/2", "2/2"])
    }

    @Test func anEditCountsItsSkillOnce() throws {
        let sandbox = try Sandbox()
        try sandbox.index().refresh()
        try sandbox.write("# Added\n\nA new document.\n", to: "navigation/references/added.md")
        var seen: [BuildProgress] = []
        try sandbox.index().refresh(progress: { seen.append($0) })
        #expect(seen.map { "\($0.skillsDone)/\($0.skillsTotal)" } == ["1/1"])
    }
}
