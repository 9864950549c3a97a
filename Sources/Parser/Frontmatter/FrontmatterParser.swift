import Yams

/// Reads the YAML frontmatter at the top of a file: leniently (every key kept, a best-effort
/// model even when the YAML is broken) and with every problem mapped to file lines.
enum FrontmatterParser {
    /// The frontmatter and the file line where the markdown body starts.
    struct Result {
        var frontmatter: Frontmatter
        var bodyStartLine: Int
    }

    static func parse(_ source: SourceText, path: String, required: Bool, diagnostics: inout [Diagnostic]) -> Result {
        let lines = source.lines
        guard let first = lines.first, isDelimiter(first.drop { $0 == "\u{FEFF}" }) else {
            if required {
                diagnostics.append(
                    Diagnostic(
                        .error, .frontmatterMissing,
                        "no frontmatter: a SKILL.md starts with a '---' line, then 'name:' and 'description:', then '---'",
                        path: path, line: 1))
            }
            return Result(frontmatter: Frontmatter(), bodyStartLine: 1)
        }
        let closing = lines.indices.dropFirst().first { isDelimiter(lines[$0]) || lines[$0].trimmingTrailingSpace == "..." }
        // A `---` after a code fence closes an example inside the body (a README's frontmatter
        // shown in a yaml block), not this frontmatter: reading to it would swallow the
        // markdown in between.
        let fence = (1..<(closing ?? lines.count)).first { isFenceOpener(lines[$0]) }
        if let close = closing, fence == nil {
            let fields = readFields(lines[1..<close], firstLine: 2, path: path, diagnostics: &diagnostics)
            return Result(frontmatter: Frontmatter(fields: fields, lines: 1...(close + 1)), bodyStartLine: close + 2)
        }
        // Best effort: the YAML runs to the first blank line, heading or fence, where the body starts.
        let end =
            lines.indices.dropFirst().first {
                lines[$0].trimmingTrailingSpace.isEmpty || lines[$0].hasPrefix("#") || isFenceOpener(lines[$0])
            } ?? lines.count
        let before = fence.map { " before the code block on line \($0 + 1)" } ?? ""
        let read = end > 1 ? "read up to line \(end) as YAML" : "nothing read as YAML"
        diagnostics.append(
            Diagnostic(
                .error, .frontmatterUnclosed,
                "the frontmatter opened on line 1 is never closed\(before); add a '---' line after its last key (\(read))",
                path: path, line: 1))
        let fields = readFields(lines[1..<end], firstLine: 2, path: path, diagnostics: &diagnostics)
        return Result(frontmatter: Frontmatter(fields: fields, lines: 1...max(1, end)), bodyStartLine: end + 1)
    }

    /// A line that opens a fenced code block: up to three spaces, then three backticks or tildes.
    private static func isFenceOpener(_ line: Substring) -> Bool {
        let text = line.drop { $0 == " " }
        return line.count - text.count <= 3 && (text.hasPrefix("```") || text.hasPrefix("~~~"))
    }

    private static func isDelimiter(_ line: Substring) -> Bool {
        line.trimmingTrailingSpace == "---"
    }

    /// Parses the YAML lines; `firstLine` is the file line of the first of them.
    private static func readFields(_ yamlLines: ArraySlice<Substring>, firstLine: Int, path: String, diagnostics: inout [Diagnostic])
        -> [FrontmatterField]
    {
        let yaml = yamlLines.joined(separator: "\n")
        func refuse(_ id: RuleID, _ message: String) -> [FrontmatterField] {
            diagnostics.append(Diagnostic(.error, id, message, path: path, line: firstLine - 1))
            return fallbackFields(yamlLines, firstLine: firstLine)
        }
        if yaml.utf8.count > FrontmatterLimits.maxBytes {
            return refuse(
                .frontmatterTooLarge,
                "the frontmatter is \(yaml.utf8.count) bytes, over the limit of \(FrontmatterLimits.maxBytes); only its 'key: value' lines are read; move long text into the body"
            )
        }
        if FrontmatterLimits.mayHaveAliasKey(yaml) {
            return refuse(
                .frontmatterAliasKey,
                "the frontmatter uses a YAML alias ('*name') inside a key; only its 'key: value' lines are read; write keys as plain words")
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: yaml)
        } catch {
            let (line, column, problem) = location(of: error)
            diagnostics.append(
                Diagnostic(
                    .error, .frontmatterSyntax,
                    "the frontmatter is not valid YAML: \(Echo.bounded(problem)); quote values that contain ': ' or ' #'",
                    path: path, line: line + firstLine - 1, column: column))
            return fallbackFields(yamlLines, firstLine: firstLine)
        }
        guard let node else { return [] }
        guard case .mapping(let mapping) = node else {
            diagnostics.append(
                Diagnostic(
                    .error, .frontmatterNotMap,
                    "the frontmatter is not a map of 'key: value' lines",
                    path: path, line: firstLine))
            return []
        }
        var converter = Converter(firstLine: firstLine)
        let lines = Array(yamlLines)
        var fields: [FrontmatterField] = []
        var cuts: [Diagnostic] = []
        for (key, value) in mapping {
            let keyLine = (key.mark?.line ?? 1) + firstLine - 1
            let name = Converter.keyName(key)
            fields.append(FrontmatterField(key: name, value: converter.convert(value, depth: 1), line: keyLine))
            if converter.nodes > FrontmatterLimits.maxNodes {
                // The expanded value is never kept, printed or hashed: only the plain lines are.
                return refuse(
                    .frontmatterTooLarge,
                    "the frontmatter expands to more than \(FrontmatterLimits.maxNodes) values (YAML aliases repeat what they name); only its 'key: value' lines are read; remove the anchors ('&name') and aliases ('*name')"
                )
            }
            if case .scalar(let scalar) = value, scalar.style == .plain, let mark = value.mark,
                let cut = commentCut(in: lines, valueMark: mark, keyColumn: key.mark?.column ?? 1)
            {
                cuts.append(
                    Diagnostic(
                        .error, .valueCutByComment,
                        "the value of '\(Echo.bounded(name))' ends at ' #' because YAML reads the rest of the line as a comment, so '\(cut.lost)' is lost; put the value in double quotes",
                        path: path, line: cut.line + firstLine - 1, column: cut.column))
            }
        }
        if let deep = converter.tooDeepLine {
            diagnostics.append(
                Diagnostic(
                    .error, .frontmatterTooDeep,
                    "the frontmatter nests lists or maps more than \(FrontmatterLimits.maxDepth) levels deep; the deeper values are dropped; flatten them",
                    path: path, line: deep))
        }
        diagnostics += cuts
        return fields
    }

    /// Where a plain scalar starting at `valueMark` meets a comment (` #`) on one of its lines.
    /// Returns the 1-based YAML line and UTF-8 column of the `#` and the text it cuts off.
    private static func commentCut(in lines: [Substring], valueMark: Mark, keyColumn: Int) -> (line: Int, column: Int, lost: String)? {
        var index = valueMark.line - 1
        var startScalar = valueMark.column - 1
        while index < lines.count {
            let scalars = Array(lines[index].unicodeScalars)
            if index > valueMark.line - 1 {
                let indent = scalars.prefix { $0 == " " }.count
                if indent < keyColumn || indent == scalars.count { return nil }
                startScalar = indent
            }
            var i = max(startScalar, 0)
            while i < scalars.count {
                if scalars[i] == "#", i > 0, scalars[i - 1] == " " || scalars[i - 1] == "\t" {
                    let lost = String(String.UnicodeScalarView(scalars[i...])).trimmingTrailingSpace
                    let column = String(String.UnicodeScalarView(scalars[..<i])).utf8.count + 1
                    return (index + 1, column, String(lost.prefix(60)))
                }
                i += 1
            }
            index += 1
        }
        return nil
    }

    /// Turns nodes into values within the budget: counts every node it visits (an alias counts
    /// as all it stands for) and keeps nesting to ``FrontmatterLimits/maxDepth``.
    private struct Converter {
        let firstLine: Int
        var nodes = 0
        /// The file line of the first value dropped for being too deep.
        var tooDeepLine: Int?

        /// A key's text; a key that is a list or map is named, never printed.
        static func keyName(_ key: Node) -> String {
            key.string ?? "(a \(key.sequence != nil ? "list" : "map") as key)"
        }

        /// Whether a list or map at `depth` is kept; the first one too deep is remembered.
        private mutating func enter(_ node: Node, depth: Int) -> Bool {
            guard depth >= FrontmatterLimits.maxDepth else { return true }
            if tooDeepLine == nil { tooDeepLine = (node.mark?.line ?? 1) + firstLine - 1 }
            return false
        }

        /// The node as a value; stops descending once the budget is spent.
        mutating func convert(_ node: Node, depth: Int) -> YAMLValue {
            nodes += 1
            guard nodes <= FrontmatterLimits.maxNodes else { return .null }
            switch node {
            case .scalar(let scalar):
                if scalar.style == .plain, ["", "~", "null", "Null", "NULL"].contains(scalar.string) { return .null }
                return .string(scalar.string)
            case .sequence(let sequence):
                guard enter(node, depth: depth) else { return .null }
                var values: [YAMLValue] = []
                for child in sequence where nodes <= FrontmatterLimits.maxNodes {
                    values.append(convert(child, depth: depth + 1))
                }
                return .list(values)
            case .mapping(let mapping):
                guard enter(node, depth: depth) else { return .null }
                var fields: [FrontmatterField] = []
                for (key, value) in mapping where nodes <= FrontmatterLimits.maxNodes {
                    nodes += 1
                    fields.append(
                        FrontmatterField(
                            key: Self.keyName(key), value: convert(value, depth: depth + 1), line: (key.mark?.line ?? 1) + firstLine - 1))
                }
                return .map(fields)
            case .alias:
                return .null
            }
        }
    }

    /// When the YAML does not parse, keep what `key: value` lines can still be read.
    private static func fallbackFields(_ yamlLines: ArraySlice<Substring>, firstLine: Int) -> [FrontmatterField] {
        var fields: [FrontmatterField] = []
        var seen = Set<String>()
        for (offset, line) in yamlLines.enumerated() {
            guard let first = line.first, first != " ", first != "\t", first != "#",
                let colon = line.firstIndex(of: ":")
            else { continue }
            let key = String(line[..<colon])
            guard !key.contains(" "), seen.insert(key).inserted else { continue }
            var value = line[line.index(after: colon)...].trimming(" \t")
            if value.count >= 2, let q = value.first, q == "\"" || q == "'", value.last == q {
                value = String(value.dropFirst().dropLast())
            }
            fields.append(FrontmatterField(key: key, value: value.isEmpty ? .null : .string(value), line: firstLine + offset))
        }
        return fields
    }

    private static func location(of error: any Error) -> (line: Int, column: Int, problem: String) {
        switch error as? YamlError {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let text = context.map { "\(problem) (\($0.text))" } ?? problem
            return (mark.line, mark.column, text)
        case .reader(let problem, _, _, _):
            return (1, 1, problem)
        default:
            return (1, 1, "\(error)")
        }
    }
}

extension StringProtocol {
    /// The text without trailing spaces and tabs.
    var trimmingTrailingSpace: String {
        trimming(" \t", leading: false)
    }

    /// The text without the given leading and trailing characters, which must be ASCII: they
    /// are compared as bytes, far faster than as Characters.
    func trimming(_ set: StaticString, leading: Bool = true) -> String {
        let bytes = UnsafeBufferPointer(start: set.utf8Start, count: set.utf8CodeUnitCount)
        let text = Substring(self)
        let utf8 = text.utf8
        var lower = utf8.startIndex
        var upper = utf8.endIndex
        if leading {
            while lower < upper, bytes.contains(utf8[lower]) { lower = utf8.index(after: lower) }
        }
        while upper > lower, bytes.contains(utf8[utf8.index(before: upper)]) { upper = utf8.index(before: upper) }
        return String(text[lower..<upper])
    }
}
