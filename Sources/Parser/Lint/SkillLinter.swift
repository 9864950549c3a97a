import Foundation

/// The quality of one skill: what `skill lint` found and a 0-100 score.
public struct SkillLint: Codable, Hashable, Sendable {
    public var name: String
    /// The folder as given on the command line.
    public var path: String
    /// See ``SkillLinter/score(_:)``.
    public var score: Int
    public var diagnostics: [Diagnostic]
}

/// Quality checks beyond validity: a description that says when to use the skill, a SKILL.md an
/// agent can afford to read, links that work, fences that close and say their language, sections
/// with content, anti-patterns that show their fix.
public enum SkillLinter {
    public static let lineLimit = 500
    public static let tokenLimit = 5_000
    /// The parser's diagnostics that lint reports: those about quality, and the frontmatter
    /// errors that leave the skill without its fields (every other check would read nothing).
    static let parserRules: Set<RuleID> = [
        .unclosedFence, .deepNesting, .manyHeadings, .largeFile, .emptyFile,
        .frontmatterMissing, .frontmatterUnclosed, .frontmatterSyntax, .frontmatterNotMap,
    ]

    /// The quality findings and the 0-100 score of the skill at `target`.
    public static func lint(_ target: SkillTarget) -> SkillLint {
        let skill = SkillLoader.load(folder: target.folder, root: target.folder)
        var diagnostics = skill.diagnostics.filter { parserRules.contains($0.id) }
        let skillFile = skill.documents.first?.path ?? "SKILL.md"
        let front = skill.frontmatter
        let descriptionLine = front.field("description")?.line ?? 1

        if let description = front.description?.trimming(" \t\n"), !description.isEmpty {
            if !saysWhen(description) {
                diagnostics.append(
                    Diagnostic(
                        .warning, .lintNoTrigger,
                        "the description does not say when to use the skill; agents pick skills by it, so add 'Use when …'",
                        path: skillFile, line: descriptionLine))
            }
            let words = description.split { $0 == " " || $0 == "\n" }.count
            if words < 8 {
                diagnostics.append(
                    Diagnostic(
                        .warning, .lintDescriptionShort,
                        "the description has \(words == 1 ? "1 word" : "\(words) words"); say what the skill does and when to use it in one or two sentences",
                        path: skillFile, line: descriptionLine))
            }
        }

        var texts: [String: [Substring]] = [:]
        for document in skill.documents {
            var ignored: [Diagnostic] = []
            let data = (try? Data(contentsOf: target.folder.appendingPathComponent(document.path))) ?? Data()
            texts[document.path] = SourceText(bytes: data, path: document.path, diagnostics: &ignored).lines
        }
        if let main = texts[skillFile] {
            if main.count > lineLimit {
                diagnostics.append(
                    Diagnostic(
                        .warning, .lintTooManyLines,
                        "SKILL.md has \(main.count) lines, over \(lineLimit); move detail into references/ files that SKILL.md links to",
                        path: skillFile, line: lineLimit + 1))
            }
            let bodyStart = front.lines.map { $0.upperBound } ?? 0
            let tokens = main.dropFirst(bodyStart).reduce(0) { $0 + $1.utf8.count + 1 } / 4
            if tokens > tokenLimit {
                diagnostics.append(
                    Diagnostic(
                        .warning, .lintTooManyTokens,
                        "SKILL.md's body is about \(tokens) tokens (bytes / 4), over \(tokenLimit); an agent loads it whole, so move detail into references/",
                        path: skillFile, line: 1))
            }
        }

        let markdownPaths = Set(skill.documents.map(\.path))
        var linksFromSkill = Set<String>()
        var linksByDocument: [String: [(target: String, line: Int, column: Int)]] = [:]
        for document in skill.documents {
            guard let lines = texts[document.path] else { continue }
            let start = document.path == skillFile ? (front.lines?.upperBound ?? 0) : 0
            let scan = MarkdownScan(lines: lines, firstLine: start + 1)
            for fence in scan.fences where fence.language.isEmpty && !fence.isDrawing {
                diagnostics.append(
                    Diagnostic(
                        .note, .lintFenceNoLanguage,
                        "this code fence has no language; add one (```swift, ```bash, or ```text for plain text) so it is highlighted and indexed",
                        path: document.path, line: fence.line))
            }
            for heading in scan.emptyHeadings {
                diagnostics.append(
                    Diagnostic(
                        .warning, .lintEmptySection,
                        "the section '\(heading.title)' is empty; write its content or remove the heading",
                        path: document.path, line: heading.line))
            }
            let directory = (document.path as NSString).deletingLastPathComponent
            for link in scan.links {
                guard let relative = localTarget(link.target) else { continue }
                let joined = directory.isEmpty ? relative : "\(directory)/\(relative)"
                let normalized = normalize(joined)
                let exists =
                    normalized.map { FileManager.default.fileExists(atPath: target.folder.appendingPathComponent($0).path) } ?? false
                if !exists {
                    diagnostics.append(
                        Diagnostic(
                            .error, .lintBrokenLink,
                            "the link target '\(link.target)' does not exist in the skill; fix the path (relative to this file) or add the file",
                            path: document.path, line: link.line, column: link.column))
                } else if let normalized, markdownPaths.contains(normalized), normalized != document.path {
                    if document.path == skillFile { linksFromSkill.insert(normalized) }
                    linksByDocument[document.path, default: []].append((normalized, link.line, link.column))
                }
            }
        }
        for (document, links) in linksByDocument where linksFromSkill.contains(document) {
            for link in links where link.target != skillFile && !linksFromSkill.contains(link.target) {
                diagnostics.append(
                    Diagnostic(
                        .warning, .lintReferenceDepth,
                        "'\(link.target)' is reached only through '\(document)', two levels from SKILL.md; agents may read it partially or not at all, so link it from SKILL.md",
                        path: document, line: link.line, column: link.column))
            }
        }

        let antiPatterns = skill.entries.filter { $0.kind == .antiPattern }
        for entry in antiPatterns {
            guard case .antiPattern(let details) = entry.details, details.fix == nil else { continue }
            // A heading that only groups anti-patterns ("## Mistakes" above "### Hand padding") is judged by them.
            let isGroup = antiPatterns.contains { other in
                other.source.path == entry.source.path && other.breadcrumb.count > entry.breadcrumb.count
                    && Array(other.breadcrumb.prefix(entry.breadcrumb.count)) == entry.breadcrumb && other.id != entry.id
            }
            if isGroup { continue }
            // The fix may follow in the same section: read on to the next heading.
            let lines = texts[entry.source.path] ?? []
            var end = max(entry.source.endLine, entry.source.line)
            while end < lines.count, MarkdownScan.heading(lines[end].drop { $0 == " " }, line: end + 1) == nil { end += 1 }
            let region = lines[min(entry.source.line - 1, lines.count)..<min(end, lines.count)].joined(separator: "\n").lowercased()
            let fixWords = ["instead", "✅", "prefer", "rather", "fix", "should", "use "]
            if fixWords.contains(where: region.contains) { continue }
            diagnostics.append(
                Diagnostic(
                    .warning, .lintAntiPatternNoFix,
                    "the anti-pattern '\(entry.title)' does not show what to do instead; add a ✅ example or an 'Instead, …' sentence",
                    path: entry.source.path, line: entry.source.line))
        }

        diagnostics = diagnostics.map { d in
            var d = d
            d.path = target.display(d.path)
            return d
        }
        diagnostics.sort { ($0.path, $0.line, $0.column, $0.id.rawValue) < ($1.path, $1.line, $1.column, $1.id.rawValue) }
        return SkillLint(name: skill.name, path: target.displayPath, score: score(diagnostics), diagnostics: diagnostics)
    }

    /// 100 minus 20 per error, 8 per warning and 2 per note, never below 0; each rule counts at
    /// most three times, so one habit (fences without a language) does not sink a skill alone.
    public static func score(_ diagnostics: [Diagnostic]) -> Int {
        var counts: [RuleID: Int] = [:]
        var penalty = 0
        for d in diagnostics {
            counts[d.id, default: 0] += 1
            guard counts[d.id]! <= 3 else { continue }
            switch d.severity {
            case .error: penalty += 20
            case .warning: penalty += 8
            case .note: penalty += 2
            }
        }
        return max(0, 100 - penalty)
    }

    /// Whether a description says when to use the skill.
    static func saysWhen(_ description: String) -> Bool {
        let text = description.lowercased()
        let cues = [
            #"\bwhen(ever)?\b"#, #"\buse (it |this( skill)? )?(for|to|if|on|with|before|after|while|during)\b"#,
            #"\btrigger"#, #"\b(if|before|after|while) (the user|you|working|writing|creating|building)\b"#,
            #"\bfor (tasks|requests|questions) "#,
        ]
        return cues.contains { text.range(of: $0, options: .regularExpression) != nil }
    }

    /// The path inside the skill that a link target names, or `nil` for URLs, anchors and absolute paths.
    static func localTarget(_ target: String) -> String? {
        var path = target
        if path.hasPrefix("<"), path.hasSuffix(">") { path = String(path.dropFirst().dropLast()) }
        if path.isEmpty || path.hasPrefix("#") || path.hasPrefix("/") || path.hasPrefix("~") { return nil }
        if path.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*:"#, options: .regularExpression) != nil { return nil }
        if let cut = path.firstIndex(where: { $0 == "#" || $0 == "?" }) { path = String(path[..<cut]) }
        if path.isEmpty { return nil }
        return path.removingPercentEncoding ?? path
    }

    /// `a/./b/../c` → `a/c`; `nil` when the path climbs out of the skill.
    static func normalize(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." {
                if parts.isEmpty { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}

/// A line scan of markdown for the linter: fences, headings without content and inline links,
/// outside code.
struct MarkdownScan {
    struct Fence {
        var line: Int
        var language: String
        var isDrawing: Bool
    }
    struct Heading {
        var line: Int
        var level: Int
        var title: String
    }
    struct Link {
        var target: String
        var line: Int
        var column: Int
    }

    var fences: [Fence] = []
    var emptyHeadings: [Heading] = []
    var links: [Link] = []

    /// Scans `lines` from file line `firstLine` (1-based) on.
    init(lines: [Substring], firstLine: Int) {
        var open: (marker: Character, length: Int, index: Int)? = nil
        var pendingHeading: Heading? = nil
        var drawingLines: [String] = []
        let linkPattern = try! NSRegularExpression(pattern: #"\]\(\s*(<[^>]*>|[^)\s]+)(\s+"[^"]*")?\s*\)"#)
        for index in max(firstLine - 1, 0)..<lines.count {
            let line = String(lines[index])
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if let fenceOpen = open {
                if indent <= 3, let run = MarkdownScan.fenceRun(trimmed), run.marker == fenceOpen.marker, run.length >= fenceOpen.length,
                    trimmed.dropFirst(run.length).allSatisfy({ $0 == " " || $0 == "\t" })
                {
                    let drawing = drawingLines.contains { $0.contains(where: { "├└│─→┌┐┘┬┴┼".contains($0) }) }
                    fences[fenceOpen.index].isDrawing = drawing
                    open = nil
                } else {
                    drawingLines.append(line)
                }
                continue
            }
            if indent <= 3, let run = MarkdownScan.fenceRun(trimmed) {
                let info = trimmed.dropFirst(run.length).trimmingCharacters(in: .whitespaces)
                if run.marker == "`", info.contains("`") {
                } else {
                    let language = info.split(separator: " ").first.map(String.init) ?? ""
                    fences.append(Fence(line: index + 1, language: language, isDrawing: false))
                    open = (run.marker, run.length, fences.count - 1)
                    drawingLines = []
                    pendingHeading = nil
                    continue
                }
            }
            if indent <= 3, let heading = MarkdownScan.heading(trimmed, line: index + 1) {
                if let pending = pendingHeading, heading.level <= pending.level { emptyHeadings.append(pending) }
                pendingHeading = heading
                continue
            }
            if !line.trimmingCharacters(in: .whitespaces).isEmpty { pendingHeading = nil }
            // Links outside inline code.
            let visible = line.replacingOccurrences(of: #"`[^`]*`"#, with: { String(repeating: " ", count: $0) }, options: [])
            let ns = visible as NSString
            for match in linkPattern.matches(in: visible, range: NSRange(location: 0, length: ns.length)) {
                let target = ns.substring(with: match.range(at: 1))
                let column = (ns.substring(to: match.range(at: 1).location)).utf8.count + 1
                links.append(Link(target: target, line: index + 1, column: column))
            }
        }
        if let pending = pendingHeading { emptyHeadings.append(pending) }
    }

    static func fenceRun(_ text: Substring) -> (marker: Character, length: Int)? {
        guard let first = text.first, first == "`" || first == "~" else { return nil }
        let length = text.prefix { $0 == first }.count
        return length >= 3 ? (first, length) : nil
    }

    static func heading(_ text: Substring, line: Int) -> Heading? {
        let level = text.prefix { $0 == "#" }.count
        guard (1...6).contains(level) else { return nil }
        let rest = text.dropFirst(level)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var title = rest.trimmingCharacters(in: .whitespaces)
        while title.hasSuffix("#") { title = String(title.dropLast()).trimmingCharacters(in: .whitespaces) }
        return Heading(line: line, level: level, title: title)
    }
}

extension String {
    /// Replaces every match of `pattern` with `transform(length of the match)`.
    func replacingOccurrences(of pattern: String, with transform: (Int) -> String, options: NSRegularExpression.Options) -> String {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: options) else { return self }
        let ns = self as NSString
        var result = ""
        var last = 0
        for match in regex.matches(in: self, range: NSRange(location: 0, length: ns.length)) {
            result += ns.substring(with: NSRange(location: last, length: match.range.location - last))
            result += transform(match.range.length)
            last = match.range.location + match.range.length
        }
        result += ns.substring(from: last)
        return result
    }
}

/// What `skill lint` reports for all the paths it was given.
public struct LintReport: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var skills: [SkillLint]
    /// The mean of the skills' scores, rounded down (100 with no skills).
    public var score: Int
    public var diagnostics: [Diagnostic]

    /// Lints every skill that `paths` name.
    /// - Throws: ``SkillError/notFound(_:)`` when a path does not exist.
    public static func lint(paths: [String]) throws -> LintReport {
        var missing: [Diagnostic] = []
        let skills = try SkillTargets.resolve(paths, diagnostics: &missing).map(SkillLinter.lint)
        var report = LintReport(
            schemaVersion: currentSchemaVersion, skills: skills,
            score: skills.isEmpty ? 100 : skills.reduce(0) { $0 + $1.score } / skills.count,
            diagnostics: missing + skills.flatMap(\.diagnostics))
        if !missing.isEmpty { report.score = 0 }
        return report
    }

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The report as JSON with a top-level `schemaVersion`, keys sorted.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes, .sortedKeys]
        return try encoder.encode(self)
    }
}
