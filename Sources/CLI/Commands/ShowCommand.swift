import ArgumentParser
import Foundation
import SkillIndex
import SkillParser

/// `skill show ID`: one entry in full.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one entry in full: its text and code, an anti-pattern's why and fix, a checklist's items, a tree's nodes.",
        discussion:
            "`skill show N` shows the Nth result of the last search; `skill show SKILLNAME` a skill's description, documents and entries by kind."
    )

    @OptionGroup var options: IndexOptions

    @Argument(help: "The entry's id as `skill search` prints it, a skill's name, or N for the Nth result of the last search.")
    var id: String

    @Flag(help: "Print the entry as JSON.")
    var json = false

    struct Output: Encodable {
        var schemaVersion = JSONOutput.schemaVersion
        var entry: Entry
        var fix: Entry?
        /// For a skill: its entries in source order (id, kind, title, source).
        var entries: [SearchResult]?
    }

    func run() throws {
        let index = try options.openFresh()
        let entry: Entry
        var fix: Entry?
        var contents: [SearchResult]?
        do {
            let id = try Int(self.id).map { try LastSearch(index: index.configuration.indexURL).id(rank: $0) } ?? self.id
            guard let found = try index.entry(id: id) else {
                if try index.skills().isEmpty { throw CLIError(message: index.configuration.noSkillsMessage) }
                let near = try index.entryIDs(prefix: id, limit: 3)
                guard near.isEmpty else {
                    Terminal.printError("error: no entry has the id '\(id)'; did you mean \(near.joined(separator: ", "))?")
                    throw ExitCode.failure
                }
                throw fail(IndexError.entryNotFound(id))
            }
            entry = found
            if case .antiPattern(let a) = entry.details, let fixID = a.fix { fix = try index.entry(id: fixID) }
            if entry.kind == .skill {
                contents = try index.search("", skill: entry.skill, limit: 100_000).results.filter { $0.id != entry.id }
            }
        } catch let code as ExitCode {
            throw code
        } catch {
            throw fail(error)
        }
        if json {
            try JSONOutput.write(Output(entry: entry, fix: fix, entries: contents))
        } else if let contents {
            print(EntryRenderer(style: .stdout).render(skill: entry, summary: try index.skill(named: entry.skill), entries: contents))
        } else {
            print(EntryRenderer(style: .stdout).render(entry, fix: fix))
        }
    }
}

/// An entry as text for a terminal: a header, its markdown with headings and code set apart,
/// then its kind's own parts.
struct EntryRenderer {
    let style: Style

    func render(_ entry: Entry, fix: Entry?) -> String {
        var out: [String] = []
        out.append(style.cyan(entry.kind.rawValue) + "  " + style.bold(entry.title))
        let crumbs = ([entry.skill] + entry.breadcrumb.dropLast()).joined(separator: " › ")
        out.append(style.dim("\(crumbs)  \(entry.source.path):\(entry.source.line)-\(entry.source.endLine)"))
        out.append(style.dim(entry.id))
        out.append("")
        // The markdown already shows a checklist's items, a tree and the why: each is printed once.
        out.append(markdown(entry.markdown))
        if let fix {
            let inside =
                fix.source.path == entry.source.path && entry.source.line <= fix.source.line && fix.source.endLine <= entry.source.endLine
            out += [
                "",
                style.bold("Fix:") + " " + style.dim(fix.id)
                    + (inside ? style.dim(" (lines \(fix.source.line)-\(fix.source.endLine), above)") : ""),
            ]
            if !inside { for block in fix.code { out.append(code(block.code)) } }
        }
        if !entry.keywords.isEmpty { out += ["", style.dim("keywords: " + entry.keywords.joined(separator: " "))] }
        return out.joined(separator: "\n")
    }

    /// A skill: its description, its documents, then its entries grouped by kind with their ids.
    func render(skill: Entry, summary: SkillSummary?, entries: [SearchResult]) -> String {
        var out = [style.cyan("skill") + "  " + style.bold(skill.skill), ""]
        if let summary {
            if !summary.description.isEmpty { out += [summary.description, ""] }
            out.append(style.bold("Documents:") + " " + style.dim(summary.folder.path))
            let prefix = summary.path == "." ? "" : summary.path + "/"
            out += summary.documents.map { "  " + ($0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0) }
        }
        for kind in EntryKind.all where kind != .skill {
            let ofKind = entries.filter { $0.kind == kind }
            guard !ofKind.isEmpty else { continue }
            out += ["", style.bold("\(kind.rawValue) (\(ofKind.count))")]
            out += ofKind.map { "  \($0.title)  " + style.dim($0.id) }
        }
        return out.joined(separator: "\n")
    }

    /// Markdown for a terminal: headings bold, fenced code indented and coloured, the rest as written.
    func markdown(_ text: String) -> String {
        var out: [String] = []
        var fence: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = fence {
                if trimmed.hasPrefix(open) {
                    fence = nil
                    continue
                }
                out.append(code(String(line)))
            } else if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = String(trimmed.prefix(3))
            } else if trimmed.hasPrefix("#") {
                out.append(style.bold(trimmed.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)))
            } else {
                out.append(style.snippet(String(line)))
            }
        }
        return out.joined(separator: "\n")
    }

    func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + style.green(String($0)) }.joined(separator: "\n")
    }
}
