import ArgumentParser
import Foundation
import SkillIndex
import SkillParser

/// `skill show ID`: one entry in full.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one entry in full: its text and code, an anti-pattern's why and fix, a checklist's items, a tree's nodes."
    )

    @OptionGroup var options: IndexOptions

    @Argument(help: "The entry's id, as `skill search` prints it.")
    var id: String

    @Flag(help: "Print the entry as JSON.")
    var json = false

    struct Output: Encodable {
        var schemaVersion = JSONOutput.schemaVersion
        var entry: Entry
        var fix: Entry?
    }

    func run() throws {
        let index = try options.openFresh()
        let entry: Entry
        var fix: Entry?
        do {
            guard let found = try index.entry(id: id) else {
                let near = try index.entryIDs(prefix: id, limit: 3)
                guard near.isEmpty else {
                    Terminal.printError("error: no entry has the id '\(id)'; did you mean \(near.joined(separator: ", "))?")
                    throw ExitCode.failure
                }
                throw fail(IndexError.entryNotFound(id))
            }
            entry = found
            if case .antiPattern(let a) = entry.details, let fixID = a.fix { fix = try index.entry(id: fixID) }
        } catch let code as ExitCode {
            throw code
        } catch {
            throw fail(error)
        }
        if json {
            try JSONOutput.write(Output(entry: entry, fix: fix))
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
        out.append(markdown(entry.markdown))
        switch entry.details {
        case .antiPattern(let a):
            if !a.why.isEmpty { out += ["", style.bold("Why:") + " " + a.why] }
            if let fix {
                out += ["", style.bold("Fix:") + " " + style.dim(fix.id)]
                for block in fix.code { out.append(code(block.code)) }
            }
        case .checklist(let list):
            out += ["", style.bold("Checklist:")]
            var group: String?
            for item in list.items {
                if item.group != group, let g = item.group { out.append("  " + style.bold(g)) }
                group = item.group
                let box = item.checked == true ? "[x]" : "[ ]"
                out.append("  \(box) \(item.text)")
            }
        case .decisionTree(let tree):
            out += ["", style.bold("Tree:")]
            func walk(_ nodes: [TreeNode], _ depth: Int) {
                for node in nodes {
                    out.append(String(repeating: "  ", count: depth + 1) + "- " + node.label)
                    walk(node.children, depth + 1)
                }
            }
            walk(tree.nodes, 0)
        default:
            break
        }
        if !entry.keywords.isEmpty { out += ["", style.dim("keywords: " + entry.keywords.joined(separator: " "))] }
        return out.joined(separator: "\n")
    }

    /// Markdown for a terminal: headings bold, fenced code indented and coloured, the rest as written.
    func markdown(_ text: String) -> String {
        var out: [String] = []
        var fence: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil; continue }
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
