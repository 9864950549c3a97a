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
                diagnostics.append(Diagnostic(
                    .error, .frontmatterMissing,
                    "no frontmatter: a SKILL.md starts with a '---' line, then 'name:' and 'description:', then '---'",
                    path: path, line: 1))
            }
            return Result(frontmatter: Frontmatter(), bodyStartLine: 1)
        }
        var closing = lines.indices.dropFirst().first { isDelimiter(lines[$0]) || lines[$0].trimmingTrailingSpace == "..." }
        if closing == nil {
            // Best effort: the YAML runs to the first blank line or heading.
            let end = lines.indices.dropFirst().first { lines[$0].trimmingTrailingSpace.isEmpty || lines[$0].hasPrefix("#") } ?? lines.count
            diagnostics.append(Diagnostic(
                .error, .frontmatterUnclosed,
                "the frontmatter opened on line 1 is never closed; add a '---' line after its last key (read up to line \(end) as YAML)",
                path: path, line: 1))
            closing = end
        }
        let close = closing!
        let yamlLines = lines[1..<close]
        let fields = readFields(yamlLines, firstLine: 2, path: path, diagnostics: &diagnostics)
        return Result(frontmatter: Frontmatter(fields: fields, lines: 1...(close + 1)), bodyStartLine: close + 2)
    }

    private static func isDelimiter(_ line: Substring) -> Bool {
        line.trimmingTrailingSpace == "---"
    }

    /// Parses the YAML lines; `firstLine` is the file line of the first of them.
    private static func readFields(_ yamlLines: ArraySlice<Substring>, firstLine: Int, path: String, diagnostics: inout [Diagnostic]) -> [FrontmatterField] {
        let yaml = yamlLines.joined(separator: "\n")
        let node: Node?
        do {
            node = try Yams.compose(yaml: yaml)
        } catch {
            let (line, column, problem) = location(of: error)
            diagnostics.append(Diagnostic(
                .error, .frontmatterSyntax,
                "the frontmatter is not valid YAML: \(problem); quote values that contain ': ' or ' #'",
                path: path, line: line + firstLine - 1, column: column))
            return fallbackFields(yamlLines, firstLine: firstLine)
        }
        guard let node else { return [] }
        guard case .mapping(let mapping) = node else {
            diagnostics.append(Diagnostic(
                .error, .frontmatterNotMap,
                "the frontmatter is not a map of 'key: value' lines",
                path: path, line: firstLine))
            return []
        }
        let lines = Array(yamlLines)
        var fields: [FrontmatterField] = []
        for (key, value) in mapping {
            let keyLine = (key.mark?.line ?? 1) + firstLine - 1
            let name = key.string ?? "\(key)"
            fields.append(FrontmatterField(key: name, value: convert(value, firstLine: firstLine), line: keyLine))
            if case .scalar(let scalar) = value, scalar.style == .plain, let mark = value.mark,
               let cut = commentCut(in: lines, valueMark: mark, keyColumn: key.mark?.column ?? 1) {
                diagnostics.append(Diagnostic(
                    .error, .valueCutByComment,
                    "the value of '\(name)' ends at ' #' because YAML reads the rest of the line as a comment, so '\(cut.lost)' is lost; put the value in double quotes",
                    path: path, line: cut.line + firstLine - 1, column: cut.column))
            }
        }
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

    /// The node as a value; `firstLine` is the file line of the YAML's first line.
    private static func convert(_ node: Node, firstLine: Int) -> YAMLValue {
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain, ["", "~", "null", "Null", "NULL"].contains(scalar.string) { return .null }
            return .string(scalar.string)
        case .sequence(let sequence):
            return .list(sequence.map { convert($0, firstLine: firstLine) })
        case .mapping(let mapping):
            return .map(mapping.map { key, value in
                FrontmatterField(key: key.string ?? "\(key)", value: convert(value, firstLine: firstLine), line: (key.mark?.line ?? 1) + firstLine - 1)
            })
        case .alias:
            return .null
        }
    }

    /// When the YAML does not parse, keep what `key: value` lines can still be read.
    private static func fallbackFields(_ yamlLines: ArraySlice<Substring>, firstLine: Int) -> [FrontmatterField] {
        var fields: [FrontmatterField] = []
        for (offset, line) in yamlLines.enumerated() {
            guard let first = line.first, first != " ", first != "\t", first != "#",
                  let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon])
            guard !key.contains(" "), !fields.contains(where: { $0.key == key }) else { continue }
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
