import Foundation
import SkillParser
import TestSupport
import Testing

/// The bundled skills in skills/: they parse cleanly, use the structures the parser extracts,
/// and copy no sentence of the seed documents they were written from.
@Suite struct BundledSkillsTests {
    static let skills = packageRoot.appendingPathComponent("skills")
    static let seeds = packageRoot.appendingPathComponent("../shared/seeds").standardizedFileURL
    static let seedsPresent = FileManager.default.fileExists(atPath: seeds.path)

    @Test func theFiveSkillsParseWithoutDiagnostics() throws {
        let report = try ParseReport.parse(path: Self.skills.path)
        #expect(
            report.skills.map(\.name) == [
                "ios-architecture-patterns", "swiftui-app-wiring", "swiftui-architecture", "swiftui-mv-patterns",
                "swiftui-state-and-observation",
            ])
        #expect(report.diagnostics.map(\.formatted) == [])
        for skill in report.skills {
            #expect(skill.frontmatter.string("license") == "Apache-2.0")
            #expect(skill.description.contains("Use when"), "\(skill.name) does not say when to use it")
        }
    }

    @Test func theyUseEveryStructureTheParserExtracts() throws {
        let entries = try ParseReport.parse(path: Self.skills.path).skills.flatMap(\.entries)
        let kinds = Set(entries.map(\.kind))
        #expect(kinds == Set(EntryKind.all))
        let fixed = entries.filter {
            if case .antiPattern(let a) = $0.details { return a.fix != nil }
            return false
        }
        #expect(fixed.count >= 5)
    }

    /// Lower-case alphanumeric words of all files under `folder`, one stream per file.
    static func wordStreams(_ folder: URL) throws -> [(String, [Substring])] {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }
            .filter { ["md", "txt"].contains($0.pathExtension) && $0.lastPathComponent != "README.md" }
        return try files.sorted { $0.path < $1.path }.map { file in
            let text = try String(contentsOf: file, encoding: .utf8).lowercased()
            let words = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
            return (file.lastPathComponent, words)
        }
    }

    /// The 12-word runs of `folder`'s files that also stand in the seeds, as `file: words`.
    static func runsSharedWithSeeds(_ folder: URL, run: Int = 12) throws -> [String] {
        var seedRuns = Set<String>()
        for (_, words) in try wordStreams(seeds) where words.count >= run {
            for start in 0...(words.count - run) {
                seedRuns.insert(words[start..<(start + run)].joined(separator: " "))
            }
        }
        var shared: [String] = []
        for (file, words) in try wordStreams(folder) where words.count >= run {
            for start in 0...(words.count - run) {
                let window = words[start..<(start + run)].joined(separator: " ")
                if seedRuns.contains(window) { shared.append("\(file): \(window)") }
            }
        }
        return shared
    }

    @Test(.enabled(if: seedsPresent, "needs ../shared/seeds, absent beside this checkout")) func noRunOfTwelveWordsIsSharedWithTheSeeds()
        throws
    {
        #expect(try Self.runsSharedWithSeeds(Self.skills) == [])
    }

    @Test(.enabled(if: seedsPresent, "needs ../shared/seeds, absent beside this checkout")) func theCheckFindsACopiedSentence() throws {
        let seed = try #require(try Self.wordStreams(Self.seeds).first { $0.1.count > 200 })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("seed-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Twelve words of a seed, re-cased, re-punctuated and broken across lines, are still found.
        let copied = seed.1[100..<112].enumerated().map { $0.offset == 6 ? "\n\($0.element.uppercased())," : String($0.element) }
        try ("Our own words first. " + copied.joined(separator: " ") + " and our own words after.")
            .write(to: folder.appendingPathComponent("SKILL.md"), atomically: true, encoding: .utf8)
        #expect(try Self.runsSharedWithSeeds(folder) == ["SKILL.md: " + seed.1[100..<112].joined(separator: " ")])
    }
}
