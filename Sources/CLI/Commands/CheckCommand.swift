import ArgumentParser
import Foundation
import SkillCheck
import SkillIndex

/// `skill check PATH…`: the indexed anti-patterns applied to the user's code.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check code against the skills' anti-patterns (Swift, Python, TypeScript).",
        discussion: """
            Each finding names the anti-pattern whose ❌ code the file matches, its score (0-1), why it \
            is wrong and its fix. Folders are walked for .swift, .py, .ts, .tsx, .js and .jsx files \
            (hidden, build and dependency folders skipped). Exit 1 when there are findings, so CI can use it.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, sarif
    }

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case antiPattern = "anti-pattern"
        case checklist
    }

    @OptionGroup var options: IndexOptions

    @Argument(help: "Files or folders to check.")
    var paths: [String] = []

    @Flag(help: "Print the report as JSON (same as --format json).")
    var json = false

    @Option(help: "Output format: text, json or sarif (SARIF 2.1.0, for code scanning).")
    var format: Format = .text

    @Option(help: "Report matches scoring at least this (0-1; default \(SignatureSet.defaultMinScore)).")
    var minScore = SignatureSet.defaultMinScore

    @Option(help: "Only this kind of result: anti-pattern (findings) or checklist (the relevant checklists).")
    var kind: Kind?

    @Flag(help: "Also print the checklists relevant to the code (those naming constructs it uses).")
    var checklists = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give files or folders to check, e.g. skill check Sources") }
        guard (0...1).contains(minScore) else { throw ValidationError("--min-score must be between 0 and 1") }
        if json, format == .sarif { throw ValidationError("--json and --format sarif are two formats; give one") }
    }

    struct Output: Encodable {
        var schemaVersion = JSONOutput.schemaVersion
        var files: Int
        var lines: Int
        var findings: [Finding]
        var checklists: [RelevantChecklist]?
    }

    func run() throws {
        let index = try options.openFresh()
        let report: CheckReport
        do {
            report = try index.checker().check(
                paths: paths, minScore: minScore, findings: kind != .checklist,
                checklists: checklists || kind == .checklist)
        } catch {
            throw fail(error)
        }
        switch json ? .json : format {
        case .sarif:
            var data = try SARIF.encode(report.findings, toolVersion: SkillCommand.configuration.version)
            data.append(0x0A)
            FileHandle.standardOutput.write(data)
        case .json:
            try JSONOutput.write(
                Output(
                    files: report.files, lines: report.lines, findings: report.findings,
                    checklists: checklists || kind == .checklist ? report.checklists : nil))
        case .text:
            print(CheckText.render(report, style: .stdout, width: Style.width, checklists: checklists || kind == .checklist))
        }
        if !report.findings.isEmpty { throw ExitCode.failure }
    }
}

/// The human form of a check report.
enum CheckText {
    static func render(_ report: CheckReport, style: Style, width: Int, checklists: Bool) -> String {
        var out: [String] = []
        for finding in report.findings {
            let lines = finding.line == finding.endLine ? "\(finding.line)" : "\(finding.line)-\(finding.endLine)"
            out.append(
                "\(style.bold("\(finding.path):\(lines)")): \(style.yellow("warning")): \(finding.title) \(style.dim("(score \(finding.score))"))"
            )
            if !finding.whySummary.isEmpty {
                out.append("    why: " + finding.whySummary.clipped(max(width - 9, 40)))
            }
            out.append("    see: skill show \(finding.id)")
            if let fix = finding.fix { out.append("    fix: skill show \(fix)") }
            out.append("    " + style.dim("\(finding.skill): \(finding.source.path):\(finding.source.line)"))
        }
        let files = report.files == 1 ? "1 file" : "\(report.files) files"
        let found = report.findings.count == 1 ? "1 finding" : "\(report.findings.count) findings"
        out.append("\(found) in \(files) (\(report.lines) lines)")
        if checklists {
            if report.checklists.isEmpty { out.append("no checklist applies to this code") }
            for checklist in report.checklists {
                out.append("")
                out.append(
                    style.cyan("checklist") + "  " + style.bold(checklist.title) + "  "
                        + style.dim("(\(checklist.matched.joined(separator: ", ")))"))
                out.append(
                    "    " + style.dim("\(checklist.skill): \(checklist.source.path):\(checklist.source.line)   skill show \(checklist.id)")
                )
                for item in checklist.items.prefix(8) {
                    out.append("    [ ] " + item.text.clipped(max(width - 8, 40)))
                }
                if checklist.items.count > 8 { out.append("    … \(checklist.items.count - 8) more") }
            }
        }
        return out.joined(separator: "\n")
    }
}
