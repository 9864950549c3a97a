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
            kind:anti-pattern, skill:NAME, lang:swift. Open a result with `skill show ID`, or \
            `skill show N` for the Nth result of the last search. Exit 1 when nothing matches.
            """
    )

    /// How the results are printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// For a person: rank, kind, title, breadcrumb and file:line, snippet, the id.
        case text
        /// One result a line, `path:line:kind:title` with the absolute path (for fzf and editors).
        case line
        /// One JSON document.
        case json
    }

    /// The defaults of `--limit` and `--format` (also those of ``plain(_:)``).
    static let defaultLimit = 10
    static let defaultFormat = Format.text

    @OptionGroup var options: IndexOptions

    @Argument(parsing: .remaining, help: "The query.")
    var query: [String] = []

    @Option(name: .shortAndLong, help: "At most this many results.")
    var limit = SearchCommand.defaultLimit

    @Option(help: "Only entries of this kind (\(EntryKind.all.map(\.rawValue).joined(separator: ", "))).")
    var kind: String?

    @Option(help: "Only entries of this skill.")
    var skill: String?

    @Option(help: "text, line (path:line:kind:title, one result a line) or json.")
    var format = SearchCommand.defaultFormat

    @Flag(help: "Print the results as JSON (as --format json).")
    var json = false

    @Flag(help: "Search the index as it is, without checking the skills for changes first.")
    var noRefresh = false

    @Flag(help: "Rank by words alone, without the vector stage (the sentence encoder's neighbours).")
    var lexical = false

    var text: String { query.joined(separator: " ") }

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        guard limit <= SkillIndex.maximumResults else {
            throw ValidationError(
                "--limit must be at most \(SkillIndex.maximumResults): a search ranks its best \(SkillIndex.maximumResults) candidates")
        }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty || kind != nil || skill != nil else {
            throw ValidationError("give a query, e.g. skill search \"property wrapper\"")
        }
        let kinds = (kind.map { [EntryKind(rawValue: $0)] } ?? []) + SearchQuery(parsing: text).kinds
        if let unknown = kinds.first(where: { !EntryKind.all.contains($0) }) {
            throw ValidationError("unknown kind '\(unknown.rawValue)'; kinds: \(EntryKind.all.map(\.rawValue).joined(separator: ", "))")
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
        let found: SearchResults
        let roots: [String: String]
        do {
            roots = try index.skillRoots()
            guard !roots.isEmpty else { throw CLIError(message: index.configuration.noSkillsMessage) }
            try checkSkillFilters(known: roots.keys.sorted())
            found = try index.search(text, kind: kind.map { EntryKind(rawValue: $0) }, skill: skill, limit: limit, lexical: lexical)
            LastSearch(index: index.configuration.indexURL).save(found.results.map(\.id))
        } catch {
            throw fail(error)
        }
        func absolutePath(_ result: SearchResult) -> String {
            URL(fileURLWithPath: roots[result.skill] ?? "/", isDirectory: true).appendingPathComponent(result.source.path).path
        }
        switch json ? .json : format {
        case .json:
            try JSONOutput.write(Output(query: text, results: found.results, corrections: found.corrections, partial: found.partial)) {
                document in
                guard var results = document["results"] as? [[String: Any]] else { return }
                for i in results.indices {
                    var source = results[i]["source"] as? [String: Any] ?? [:]
                    source["absolutePath"] = absolutePath(found.results[i])
                    results[i]["source"] = source
                }
                document["results"] = results
            }
        case .line:
            for result in found.results {
                print("\(absolutePath(result)):\(result.source.line):\(result.kind.rawValue):\(result.title)")
            }
        case .text:
            if !found.results.isEmpty { print(ResultPrinter(style: .stdout, width: Style.width).render(found)) }
        }
        if found.results.isEmpty {
            if format == .text && !json { Terminal.printError("no results for \(Echo.bounded(text))") }
            throw ExitCode.failure
        }
    }

    /// An unknown `--skill` or `skill:` is an error naming the nearest skills, not an empty answer.
    private func checkSkillFilters(known: [String]) throws {
        let names = Set(known)
        for name in (skill.map { [$0] } ?? []) + SearchQuery(parsing: text).skills where !names.contains(name) {
            let near = EditDistance.nearest(name, in: known, limit: 3)
            throw CLIError(
                message: "no skill is named '\(name)'" + (near.isEmpty ? "" : "; did you mean \(near.joined(separator: ", "))?")
                    + " (`skill list` lists them)")
        }
    }
}

/// Search results as text for a terminal.
struct ResultPrinter {
    let style: Style
    let width: Int

    func render(_ found: SearchResults) -> String {
        var out: [String] = []
        out += found.notes.map(style.dim)
        for (rank, result) in found.results.enumerated() {
            let head =
                String(format: "%2d. ", rank + 1) + style.cyan(result.kind.rawValue) + "  " + style.bold(result.title.clipped(width - 20))
            out.append(head)
            out.append("    " + style.dim(location(result)))
            if let others = result.alsoAt, let other = others.first {
                let more = others.count > 1 ? " (+\(others.count - 1) more)" : ""
                out.append("    " + style.dim("also at \(other.absolutePath):\(other.source.line)\(more)".clipped(width - 4)))
            }
            if !result.snippet.isEmpty { out.append("    " + style.snippet(result.snippet.clipped(max(width - 4, 40) * 2))) }
            out.append("    " + style.dim("skill show \(result.id)"))
        }
        return out.joined(separator: "\n")
    }

    /// The breadcrumb and `file:line` on one line of the width: the `file:line` stays whole and
    /// the breadcrumb is shortened instead.
    func location(_ result: SearchResult) -> String {
        let place = "\(result.source.path):\(result.source.line)"
        let crumbs = ([result.skill] + result.breadcrumb.dropLast()).joined(separator: " › ")
        let room = width - 4 - place.count - 2
        guard room >= 8 else { return place }
        return crumbs.clipped(room) + "  " + place
    }
}
