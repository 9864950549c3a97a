/// Reads GFM pipe tables out of a paragraph's source lines (plain cmark has no tables).
enum TableReader {
    /// A table found in source lines, with its file lines.
    struct Found {
        var table: Table
        var line: Int
        var endLine: Int
    }

    /// The tables among `lines`; `firstLine` is the file line of `lines[0]`.
    static func tables(in lines: [Substring], firstLine: Int) -> [Found] {
        var found: [Found] = []
        var i = 0
        while i + 1 < lines.count {
            guard lines[i].has("|"), isDelimiterRow(lines[i + 1]) else { i += 1; continue }
            let header = cells(of: lines[i])
            var rows: [[String]] = []
            var j = i + 2
            while j < lines.count, lines[j].has("|"), !lines[j].trimming(" \t").isEmpty {
                rows.append(cells(of: lines[j]))
                j += 1
            }
            found.append(Found(table: Table(header: header, rows: rows), line: firstLine + i, endLine: firstLine + j - 1))
            i = j
        }
        return found
    }

    /// `| --- | :---: |`, `---|---`: dashes and colons between pipes, at least one pipe or two cells.
    static func isDelimiterRow(_ line: Substring) -> Bool {
        // Only `| - : space tab` may appear: a cheap byte test before splitting cells.
        guard line.utf8.allSatisfy({ $0 == 0x7C || $0 == 0x2D || $0 == 0x3A || $0 == 0x20 || $0 == 0x09 }) else { return false }
        let trimmed = line.trimming(" \t")
        guard trimmed.has("-"), trimmed.has("|") || trimmed.hasPrefix(":") else { return false }
        let parts = cells(of: line[...])
        return !parts.isEmpty && parts.allSatisfy { cell in
            !cell.isEmpty && cell.has("-") && cell.allSatisfy { $0 == "-" || $0 == ":" }
        }
    }

    /// Splits a row at unescaped pipes outside code spans; the outer pipes are optional.
    static func cells(of line: Substring) -> [String] {
        var trimmed = Substring(line.trimming(" \t"))
        if trimmed.hasPrefix("|") { trimmed = trimmed.dropFirst() }
        if trimmed.hasSuffix("|"), !trimmed.hasSuffix("\\|") { trimmed = trimmed.dropLast() }
        var cells: [String] = []
        var current = ""
        var inCode = false
        var escaped = false
        for ch in trimmed {
            if escaped {
                if ch != "|" { current.append("\\") }
                current.append(ch)
                escaped = false
            } else if ch == "\\" {
                escaped = true
            } else if ch == "`" {
                inCode.toggle()
                current.append(ch)
            } else if ch == "|", !inCode {
                cells.append(current.trimming(" \t"))
                current = ""
            } else {
                current.append(ch)
            }
        }
        if escaped { current.append("\\") }
        cells.append(current.trimming(" \t"))
        return cells
    }
}
