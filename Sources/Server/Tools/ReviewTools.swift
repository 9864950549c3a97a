import Foundation
import SkillCheck
import SkillParser

/// `review` (code given inline) and `check` (a file or folder under the server's working
/// directory): the skills' anti-patterns and relevant checklists applied to code.
extension SkillTools {
    static let reviewTool = Tool(
        name: "review", title: "Review code",
        description:
            "Check code against the installed skills' anti-patterns: findings with lines, why and fix id, then the relevant checklists. Call before and after editing a file.",
        inputSchema: [
            "type": "object",
            "properties": [
                "code": ["type": "string", "description": "The code (Swift, Python or TypeScript)."],
                "path": ["type": "string", "description": "Its file name; gives the language."],
                "language": ["type": "string", "enum": ["swift", "python", "typescript"]],
                "maxChars": maxCharsSchema,
            ], "required": ["code"],
        ],
        outputSchema: reportSchema, annotations: readOnly)

    static let checkTool = Tool(
        name: "check", title: "Check files",
        description: "`review` for a file or folder under the server's working directory.",
        inputSchema: [
            "type": "object",
            "properties": [
                "path": ["type": "string", "description": "Relative to the working directory."],
                "maxChars": maxCharsSchema,
            ], "required": ["path"],
        ],
        outputSchema: reportSchema, annotations: readOnly)

    static let reportSchema: JSONValue = [
        "type": "object",
        "properties": [
            "findings": ["type": "array", "items": ["type": "object"]],
            "checklists": ["type": "array", "items": ["type": "object"]],
            "truncated": ["type": "boolean"],
        ], "required": ["findings"],
    ]

    /// The largest `code` `review` takes, as `skill check` takes one file.
    static var maximumCode: Int { Checker.maximumFileSize }

    func review(_ args: Arguments) throws -> Output {
        let code = try args.string("code", required: true)!
        let path = try args.string("path")
        let budget = try args.maxChars()
        guard code.utf8.count <= Self.maximumCode else {
            throw ToolFailure(
                message: "review: the code is \(code.utf8.count) bytes, over the \(Self.maximumCode)-byte limit; send one file at a time.")
        }
        let language: SourceLanguage
        if let name = try args.string("language") {
            guard let known = SourceLanguage(fence: name) else {
                throw ToolFailure(message: "review: unknown language \"\(name)\". Languages: swift, python, typescript.")
            }
            language = known
        } else if let path, let known = SourceLanguage(path: path) {
            language = known
        } else {
            language = .swift
        }
        let checker = try available("review")
        let report = checker.review(code, language: language, path: path ?? "code")
        return Self.render(report, budget: budget)
    }

    func check(_ args: Arguments) throws -> Output {
        let path = try args.string("path", required: true)!
        let budget = try args.maxChars()
        let root = checkRoot.resolvingSymlinksInPath().standardizedFileURL.path
        let target = (path.hasPrefix("/") ? URL(fileURLWithPath: path) : checkRoot.appendingPathComponent(path))
            .resolvingSymlinksInPath().standardizedFileURL.path
        guard target == root || target.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw ToolFailure(
                message:
                    "check: \(path) is outside the server's working directory \(root); give a path inside it, or send the code to `review`."
            )
        }
        let checker = try available("check")
        do {
            let report = try checker.check(paths: [target], checklists: true)
            return Self.render(report, budget: budget, relativeTo: root)
        } catch let error as CheckError {
            throw ToolFailure(message: "check: " + (error.errorDescription ?? "\(error)"))
        }
    }

    private func available(_ tool: String) throws -> Checker {
        guard let checker = knowledge.checker() else {
            throw ToolFailure(message: "\(tool): the skills' index cannot be read now; try again in a moment.")
        }
        return checker
    }

    /// A report within `budget` characters (text and structured JSON together, as `search`):
    /// findings first, then as many checklists as fit.
    static func render(_ report: CheckReport, budget: Int, relativeTo root: String? = nil) -> Output {
        func shown(_ path: String) -> String {
            guard let root, path.hasPrefix(root + "/") else { return path }
            return String(path.dropFirst(root.count + 1))
        }
        var lines: [String] = []
        var findings: [JSONValue] = []
        var checklists: [JSONValue] = []
        var used = 0
        var truncated = false
        for finding in report.findings {
            let why = finding.whySummary
            var block =
                "\(findings.count + 1). \(shown(finding.path)):\(finding.line)-\(finding.endLine) \(finding.title) (score \(finding.score))\n   id: \(finding.id)"
            if let fix = finding.fix { block += "\n   fix: \(fix)" }
            if !why.isEmpty { block += "\n   why: " + Text.clip(why, 240) }
            let json: JSONValue = [
                "path": .string(shown(finding.path)), "line": .int(finding.line), "endLine": .int(finding.endLine),
                "score": .number(finding.score), "id": .string(finding.id), "title": .string(finding.title),
                "skill": .string(finding.skill), "why": .string(Text.clip(why, 240)), "fix": finding.fix.map { .string($0) } ?? .null,
                "source": ["path": .string(finding.source.path), "line": .int(finding.source.line)],
            ]
            let cost = block.count + 1 + JSONWriter.data(json).count
            if used + cost > budget, !findings.isEmpty {
                truncated = true
                break
            }
            lines.append(block)
            findings.append(json)
            used += cost
        }
        let size = report.lines == 1 ? "1 line" : "\(report.lines) lines"
        let head =
            report.findings.isEmpty
            ? "No anti-pattern of the installed skills matches this code (\(size))."
            : "\(report.findings.count) finding\(report.findings.count == 1 ? "" : "s") (\(size)); `get` an id for the anti-pattern and its fix:"
        for checklist in report.checklists where !truncated {
            let items = checklist.items.map(\.text)
            let block =
                "- \(checklist.title) (\(checklist.id)), for \(checklist.matched.joined(separator: ", ")):\n"
                + items.map { "  [ ] " + $0 }.joined(separator: "\n")
            let json: JSONValue = [
                "id": .string(checklist.id), "title": .string(checklist.title), "skill": .string(checklist.skill),
                "matched": .array(checklist.matched.map { .string($0) }), "items": .array(items.map { .string($0) }),
            ]
            let cost = block.count + 1 + JSONWriter.data(json).count
            if used + cost > budget {
                truncated = true
                break
            }
            if checklists.isEmpty { lines.append("Checklists for this code:") }
            lines.append(block)
            checklists.append(json)
            used += cost
        }
        var text = ([head] + lines).joined(separator: "\n")
        if truncated { text += "\n(truncated: raise maxChars for the rest)" }
        var structured: [String: JSONValue] = ["findings": .array(findings), "checklists": .array(checklists)]
        if truncated { structured["truncated"] = true }
        return Output(text: text, structured: .object(structured))
    }
}
