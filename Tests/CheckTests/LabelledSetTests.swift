import Foundation
import TestSupport
import Testing

@testable import SkillCheck

/// The labelled set (Fixtures/labelled): precision and recall at the default threshold.
@Suite struct LabelledSetTests {
    @Test func theSetIsAsDocumented() {
        let files = Labelled.set.files
        #expect(files.filter { $0.path.hasSuffix(".swift") }.count >= 40)
        #expect(files.filter { $0.path.hasSuffix(".swift") && $0.mistake != nil }.count >= 20)
        #expect(files.filter { $0.path.hasSuffix(".swift") && $0.mistake == nil }.count >= 20)
        #expect(files.contains { $0.path.hasSuffix(".py") })
        #expect(files.contains { $0.path.hasSuffix(".ts") || $0.path.hasSuffix(".tsx") })
        for file in files {
            #expect(FileManager.default.fileExists(atPath: Labelled.folder.appendingPathComponent(file.path).path), "\(file.path)")
        }
    }

    @Test func withTheBundledSkillsPrecisionHolds() throws {
        let result = try score(Checkers.bundled, files: Labelled.set.files)
        #expect(result.precision >= 0.85, "false positives: \(result.falsePositives)")
        // Only the mistakes modelled on the bundled skills can be found with them alone.
        let bundled = Labelled.set.files.filter { file in
            guard let mistake = file.mistake else { return false }
            return FileManager.default.fileExists(
                atPath: bundledSkills.appendingPathComponent(String(mistake.modelledOn.prefix { $0 != "/" })).path)
        }
        #expect(bundled.count >= 10)
        #expect(try score(Checkers.bundled, files: bundled).recall >= 0.5)
    }

    @Test func withTheCorpusPrecisionAndRecallMeetTheTargets() throws {
        guard let checker = Checkers.withCorpus else {
            print("skipped: ../shared/corpus is absent; precision and recall over the corpus are not measured")
            return
        }
        let result = try score(checker, files: Labelled.set.files)
        #expect(result.precision >= 0.9, "false positives: \(result.falsePositives)")
        #expect(result.recall >= 0.6)
    }
}
