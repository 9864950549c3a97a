import Foundation
import TestSupport
import Testing

@Suite struct CheckCommandTests {
    static let labelled = packageRoot.appendingPathComponent("Tests/CheckTests/Fixtures/labelled")
    static let skills = packageRoot.appendingPathComponent("skills").path
    static let antiPattern =
        "swiftui-architecture/references/anti-patterns#swiftui-architecture-anti-patterns/anti-pattern-async-work-without-boundaries"

    private func check(_ arguments: [String]) throws -> BinaryRunner.Result {
        try BinaryRunner.run(["check", "--skills", Self.skills] + arguments, currentDirectory: Self.labelled)
    }

    @Test func aMistakeIsReportedWithExitOne() throws {
        let result = try check(["swift/mistake-await-between-flags.swift"])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                swift/mistake-await-between-flags.swift:3-11: warning: Anti-Pattern: Async Work Without Boundaries (score 1.0)
                    why: await suspends; everything after it runs at some later time, outside the original update.
                    see: skill show \(Self.antiPattern)
                    fix: skill show \(Self.antiPattern)~example-2
                    swiftui-architecture: swiftui-architecture/references/anti-patterns.md:68
                1 finding in 1 file (18 lines)

                """)
    }

    @Test func cleanCodeExitsZero() throws {
        let result = try check(["swift/clean-state-bridge.swift", "python", "typescript"])
        #expect(result.status == 0)
        #expect(result.stdout == "0 findings in 5 files (81 lines)\n")
    }

    @Test func jsonHasTheFindingsFields() throws {
        let result = try check(["--json", "swift/mistake-await-between-flags.swift"])
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(json["schemaVersion"] as? Int == 1)
        #expect(json["files"] as? Int == 1)
        #expect(json["checklists"] == nil)
        let finding = try #require((json["findings"] as? [[String: Any]])?.first)
        #expect(finding["id"] as? String == Self.antiPattern)
        #expect(finding["line"] as? Int == 3)
        #expect(finding["endLine"] as? Int == 11)
        #expect(finding["score"] as? Double == 1)
        #expect(finding["fix"] as? String == Self.antiPattern + "~example-2")
        #expect((finding["fixCode"] as? String)?.contains("withAnimation(.easeInOut) { model.isUploading = true }") == true)
        #expect((finding["source"] as? [String: Any])?["line"] as? Int == 68)
    }

    @Test func sarifIsValidAgainstTheSchemaAndNamesRulesAndRegions() throws {
        let result = try check(["--format", "sarif", "swift"])
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(json["version"] as? String == "2.1.0")
        let run = try #require((json["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count >= 5)
        let rule = try #require(rules.first { $0["id"] as? String == Self.antiPattern })
        #expect((rule["shortDescription"] as? [String: Any])?["text"] as? String == "Anti-Pattern: Async Work Without Boundaries")
        #expect(((rule["properties"] as? [String: Any])?["source"] as? [String: Any])?["line"] as? Int == 68)
        #expect(((rule["help"] as? [String: Any])?["text"] as? String)?.contains("Fix (\(Self.antiPattern)~example-2):") == true)
        let hit = try #require(results.first { $0["ruleId"] as? String == Self.antiPattern })
        let location = try #require(((hit["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "swift/mistake-await-between-flags.swift")
        #expect((location["region"] as? [String: Any])?["startLine"] as? Int == 3)
        #expect((location["region"] as? [String: Any])?["endLine"] as? Int == 11)
        for result in results {
            #expect(rules[result["ruleIndex"] as! Int]["id"] as? String == result["ruleId"] as? String)
        }

        // The official schema, through Python's jsonschema.
        let schema = packageRoot.appendingPathComponent("Tests/CheckTests/Fixtures/sarif/sarif-schema-2.1.0.json").path
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("skill-\(UUID().uuidString).sarif")
        try result.stdoutData.write(to: log)
        defer { try? FileManager.default.removeItem(at: log) }
        // scripts/setup --tests installs jsonschema into the project's .venv/.
        let venvPython = packageRoot.appendingPathComponent(".venv/bin/python").path
        let python = FileManager.default.isExecutableFile(atPath: venvPython) ? venvPython : "python3"
        let validator = Process()
        validator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        validator.arguments = [
            python, "-c",
            """
            import json, sys
            try:
                import jsonschema
            except ImportError:
                print("skip"); sys.exit(0)
            schema = json.load(open(sys.argv[1]))
            jsonschema.validators.validator_for(schema)(schema).validate(json.load(open(sys.argv[2])))
            print("valid")
            """, schema, log.path,
        ]
        let out = Pipe()
        validator.standardOutput = out
        try validator.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        validator.waitUntilExit()
        if said == "skip\n" {
            // Without the test tools (`swift test` alone) this check cannot run; CI must run it.
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "jsonschema is missing from \(python): run scripts/setup --tests")
            print(
                "skipped: Python's jsonschema is not installed; the SARIF log is not validated against the schema (scripts/setup --tests installs it)"
            )
            return
        }
        #expect(validator.terminationStatus == 0)
        #expect(said == "valid\n")
    }

    @Test func checklistsOnlyExitZero() throws {
        let result = try check(["--kind", "checklist", "swift/mistake-await-between-flags.swift"])
        #expect(result.status == 0)
        #expect(
            result.stdout.hasPrefix("0 findings in 1 file (18 lines)\n\nchecklist  Model Ownership and Property Wrapper Choice  (@State)\n")
        )
    }

    @Test func badInputIsAClearError() throws {
        let missing = try check(["Nope.swift"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: Nope.swift does not exist; pass a file or folder of Swift, Python or TypeScript code\n")
        let other = try check(["labels.json"])
        #expect(other.status == 1)
        #expect(
            other.stderr
                == "error: cannot check labels.json: not Swift, Python or TypeScript (.swift, .py, .ts, .tsx, .js, .jsx); pass such a file or a folder\n"
        )
        let score = try check(["--min-score", "2", "swift"])
        #expect(score.status == 64)
        #expect(score.stderr.contains("--min-score must be between 0 and 1"))
        let none = try check([])
        #expect(none.status == 64)
    }
}
