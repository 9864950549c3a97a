import Foundation

/// A check report as a SARIF 2.1.0 log (OASIS), the format GitHub code scanning and editors
/// read: one run whose `tool.driver.rules` are the anti-patterns found (id, title, why and fix,
/// and where the skill writes it) and whose `results` point at the lines found.
public enum SARIF {
    public static let version = "2.1.0"
    public static let schema = "https://json.schemastore.org/sarif-2.1.0.json"

    struct Log: Encodable {
        var schema = SARIF.schema
        var version = SARIF.version
        var runs: [Run]
        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case version
            case runs
        }
    }

    struct Run: Encodable {
        var tool: Tool
        var results: [Result]
    }

    struct Tool: Encodable { var driver: Driver }

    struct Driver: Encodable {
        var name: String
        var version: String
        var informationUri: String
        var rules: [Rule]
    }

    struct Text: Encodable { var text: String }

    struct Rule: Encodable {
        var id: String
        var name: String
        var shortDescription: Text
        var fullDescription: Text
        var help: Text
        var properties: RuleProperties
    }

    struct RuleProperties: Encodable {
        var skill: String
        var source: Source
    }

    struct Source: Encodable {
        var path: String
        var line: Int
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level = "warning"
        var message: Text
        var locations: [Location]
        var properties: ResultProperties
    }

    struct ResultProperties: Encodable { var score: Double }

    struct Location: Encodable { var physicalLocation: PhysicalLocation }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }

    struct ArtifactLocation: Encodable { var uri: String }

    struct Region: Encodable {
        var startLine: Int
        var endLine: Int
    }

    /// The SARIF log of `findings`, as pretty-printed JSON with sorted keys.
    /// - Parameter toolVersion: the `skill` version written as the driver's version.
    public static func encode(_ findings: [Finding], toolVersion: String) throws -> Data {
        var rules: [Rule] = []
        var ruleIndex: [String: Int] = [:]
        var results: [Result] = []
        for finding in findings {
            let index: Int
            if let known = ruleIndex[finding.id] {
                index = known
            } else {
                index = rules.count
                ruleIndex[finding.id] = index
                rules.append(
                    Rule(
                        id: finding.id, name: finding.title, shortDescription: Text(text: finding.title),
                        fullDescription: Text(text: finding.why.isEmpty ? finding.title : finding.why),
                        help: Text(text: helpText(finding)),
                        properties: RuleProperties(
                            skill: finding.skill, source: Source(path: finding.source.path, line: finding.source.line))))
            }
            results.append(
                Result(
                    ruleId: finding.id, ruleIndex: index,
                    message: Text(text: "\(finding.title) (\(finding.skill), score \(finding.score)); see `skill show \(finding.id)`"),
                    locations: [
                        Location(
                            physicalLocation: PhysicalLocation(
                                artifactLocation: ArtifactLocation(uri: uri(finding.path)),
                                region: Region(startLine: finding.line, endLine: finding.endLine)))
                    ],
                    properties: ResultProperties(score: finding.score)))
        }
        let log = Log(runs: [
            Run(
                tool: Tool(driver: Driver(name: "skill", version: toolVersion, informationUri: "https://agentskills.io", rules: rules)),
                results: results)
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(log)
    }

    /// Why and the fix, as the rule's help.
    static func helpText(_ finding: Finding) -> String {
        var parts = [finding.why.isEmpty ? finding.title : finding.why]
        if !finding.fixCode.isEmpty { parts.append("Fix (\(finding.fix ?? finding.id)):\n" + finding.fixCode) }
        parts.append("Source: \(finding.source.path):\(finding.source.line)")
        return parts.joined(separator: "\n\n")
    }

    /// A path as a URI reference: relative paths stay relative (to the checkout, as code scanning expects).
    static func uri(_ path: String) -> String {
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }
}
