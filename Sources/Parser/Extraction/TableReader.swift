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
            guard lines[i].has("|"), isDelimiterRow(lines[i + 1]) else {
                i += 1
                continue
            }
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
        return !parts.isEmpty
            && parts.allSatisfy { cell in
                !cell.isEmpty && cell.has("-") && cell.allSatisfy { $0 == "-" || $0 == ":" }
            }
    }

    /// Splits a row at unescaped pipes outside code spans; the outer pipes are optional.
    /// Pipes, backslashes and backticks are ASCII, so the row is scanned as bytes and each cell
    /// is a slice of it (rebuilt only when it holds an escaped pipe).
    static func cells(of line: Substring) -> [String] {
        let row = Substring(line.trimming(" \t"))
        let utf8 = row.utf8
        var lower = utf8.startIndex
        var upper = utf8.endIndex
        if lower < upper, utf8[lower] == 0x7C { lower = utf8.index(after: lower) }
        if upper > lower, utf8[utf8.index(before: upper)] == 0x7C {
            let beforePipe = utf8.index(before: upper)
            if beforePipe == lower || utf8[utf8.index(before: beforePipe)] != 0x5C { upper = beforePipe }
        }
        var cells: [String] = []
        var cellStart = lower
        var escapedPipe = false
        var inCode = false
        var i = lower
        func finish(_ end: String.UTF8View.Index) {
            let cell = row[cellStart..<end]
            let text = escapedPipe ? cell.replacingOccurrences(of: "\\|", with: "|") : String(cell)
            cells.append(text.trimming(" \t"))
        }
        while i < upper {
            let byte = utf8[i]
            if byte == 0x5C {
                let next = utf8.index(after: i)
                if next < upper, utf8[next] == 0x7C {
                    escapedPipe = true
                    i = utf8.index(after: next)
                    continue
                }
            } else if byte == 0x60 {
                inCode.toggle()
            } else if byte == 0x7C, !inCode {
                finish(i)
                cellStart = utf8.index(after: i)
                escapedPipe = false
            }
            i = utf8.index(after: i)
        }
        finish(upper)
        return cells
    }
}
