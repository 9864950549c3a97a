import Foundation
import TestSupport
import Testing

/// `skill search WORD…` without options is read without the argument parser
/// (`SearchCommand.plain`): it must do exactly what the parser's reading does. `skill search --
/// WORD…` takes the parser's way with the same words, so each pair of runs must agree byte for
/// byte: results, numbering, errors and exit codes.
@Suite struct PlainSearchTests {
    @Test func plainWordsActAsTheParsersReadingOfThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plain-search-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Options are what the plain reading leaves to the parser: roots and index come from
        // the environment here.
        let environment = [
            "SKILL_PATH": packageRoot.appendingPathComponent("skills").path,
            "SKILL_INDEX": folder.appendingPathComponent("index.sqlite").path,
        ]
        #expect(try BinaryRunner.run(["build"], environment: environment).status == 0)
        let queries = [
            ["property", "wrapper"], ["state", "binding", "in", "a", "list", "row"], ["help"], ["zzqqxxnothing"],
            ["kind:nonsense", "state"], ["skill:swiftui-architectur", "state"], ["kind:anti-pattern", "navigation"],
            (1...12).map { "w\($0)" },
        ]
        for words in queries {
            let plain = try BinaryRunner.run(["search"] + words, environment: environment)
            // `skill show 1` opens the first result of the last search, whichever way it was read.
            let plainFirst = try BinaryRunner.run(["show", "1"], environment: environment)
            let parsed = try BinaryRunner.run(["search", "--"] + words, environment: environment)
            let parsedFirst = try BinaryRunner.run(["show", "1"], environment: environment)
            #expect(plain.status == parsed.status, "\(words)")
            #expect(plain.stdout == parsed.stdout, "\(words)")
            #expect(plain.stderr == parsed.stderr, "\(words)")
            #expect(plainFirst.stdout == parsedFirst.stdout, "\(words)")
            #expect(plainFirst.status == parsedFirst.status, "\(words)")
        }
        let property = try BinaryRunner.run(["search", "property", "wrapper"], environment: environment)
        #expect(property.status == 0)
        #expect(property.stdout.hasPrefix(" 1. "))
    }
}
