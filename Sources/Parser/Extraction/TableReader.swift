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
    /// Pipes, backslashes and backticks are ASCII, so the row is scanned as bytes.
    static func cells(of line: Substring) -> [String] {
        let bytes = Array(line.utf8)
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        if start < end, bytes[start] == 0x7C { start += 1 }
        if end > start, bytes[end - 1] == 0x7C, end - 2 < start || bytes[end - 2] != 0x5C { end -= 1 }
        var cells: [String] = []
        var cell: [UInt8] = []
        var inCode = false
        var i = start
        while i < end {
            let byte = bytes[i]
            if byte == 0x5C, i + 1 < end, bytes[i + 1] == 0x7C {
                cell.append(0x7C)  // `\|` is a pipe inside a cell
                i += 2
                continue
            }
            if byte == 0x60 { inCode.toggle() }
            if byte == 0x7C, !inCode {
                cells.append(String(decoding: cell, as: UTF8.self).trimming(" \t"))
                cell.removeAll(keepingCapacity: true)
            } else {
                cell.append(byte)
            }
            i += 1
        }
        cells.append(String(decoding: cell, as: UTF8.self).trimming(" \t"))
        return cells
    }
}
