import ArgumentParser
import Foundation
import SkillIndex
import SkillParser

/// `skill search QUERY`: ranked entries, refreshing a stale index first.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search the skills' knowledge: patterns, anti-patterns, checklists, examples…",
        discussion: """
        Query: words (all must match; else any), "exact phrase", prefix*, and the filters \
        kind:anti-pattern, skill:NAME, lang:swift. Open a result with `skill show ID`.
        """
    )

    @OptionGroup var options: IndexOptions

    @Argument(parsing: .remaining, help: "The query.")
    var query: [String] = []

    @Option(name: .shortAndLong, help: "At most this many results.")
    var limit = 10

    @Option(help: "Only entries of this kind (skill, section, pattern, anti-pattern, checklist, decision-tree, example, table).")
    var kind: String?

    @Option(help: "Only entries of this skill.")
    var skill: String?

    @Flag(help: "Print the results as JSON.")
    var json = false

    @Flag(help: "Search the index as it is, without checking the skills for changes first.")
    var noRefresh = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        guard !query.joined().trimmingCharacters(in: .whitespaces).isEmpty || kind != nil || skill != nil else {
            throw ValidationError("give a query, e.g. skill search \"swift testing expect\"")
        }
    }

    struct Output: Encodable {
        var schemaVersion = JSONOutput.schemaVersion
        var query: String
        var results: [SearchResult]
        var corrections: [String: String]
        var partial: Bool
    }

    func run() throws {
        let index = noRefresh ? try options.open() : try options.openFresh()
        let text = query.joined(separator: " ")
        let found: SearchResults
        do {
            found = try index.search(text, kind: kind.map { EntryKind(rawValue: $0) }, skill: skill, limit: limit)
        } catch {
            throw fail(error)
        }
        if json {
            try JSONOutput.write(Output(query: text, results: found.results, corrections: found.corrections, partial: found.partial))
            return
        }
        let style = Style.stdout
        let width = Style.width
        var out: [String] = []
        out += found.notes.map(style.dim)
        if found.results.isEmpty { out.append("no results for \(text)") }
        for (rank, result) in found.results.enumerated() {
            let head = String(format: "%2d. ", rank + 1) + style.cyan(result.kind.rawValue) + "  " + style.bold(result.title.clipped(width - 20))
            out.append(head)
            let crumbs = ([result.skill] + result.breadcrumb.dropLast()).joined(separator: " › ")
            out.append("    " + style.dim("\(crumbs)  \(result.source.path):\(result.source.line)".clipped(width - 4)))
            if let others = result.alsoAt, let other = others.first {
                let more = others.count > 1 ? " (+\(others.count - 1) more)" : ""
                out.append("    " + style.dim("also at \(other.absolutePath):\(other.source.line)\(more)".clipped(width - 4)))
            }
            if !result.snippet.isEmpty { out.append("    " + style.snippet(result.snippet.clipped(max(width - 4, 40) * 2))) }
            out.append("    " + style.dim("skill show \(result.id)"))
        }
        print(out.joined(separator: "\n"))
    }
}
