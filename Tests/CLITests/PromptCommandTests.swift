import Foundation
import TestSupport
import Testing

/// `skill prompt` reads the roots search, list and serve use (the bundled skills included) and
/// has `--json` as every read command does.
@Suite struct PromptCommandTests {
    @Test func defaultRootsIncludeTheBundledSkillsAndJSONListsThem() throws {
        let result = try BinaryRunner.run(["prompt", "--json"], environment: ["SKILL_PATH": ""])
        #expect(result.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 1)
        let skills = try #require(document["skills"] as? [[String: Any]])
        #expect(skills.compactMap { $0["name"] as? String } == BundledSkillsCommandTests.names)
        let skillsFolder = packageRoot.appendingPathComponent("skills").path
        #expect(skills.first?["location"] as? String == "\(skillsFolder)/ios-architecture-patterns/SKILL.md")

        let xml = try BinaryRunner.run(["prompt"], environment: ["SKILL_PATH": ""])
        #expect(xml.stdout.hasPrefix("<available_skills>\n<skill>\n<name>\nios-architecture-patterns\n</name>\n"))
    }
}
