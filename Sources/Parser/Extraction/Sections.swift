/// A heading section: the heading and its content up to the next heading of the same or a higher
/// level. Built from top-level headings only (a heading inside a list or quote is content).
struct Section {
    var title: String
    var level: Int
    /// File lines of the heading and of the section's last non-blank line (sub-sections included).
    var line: Int
    var endLine: Int
    /// The last line of the section's own content, before its first sub-section.
    var ownEndLine: Int
    var parent: Int?
    /// Indices into the document's blocks of the section's own content (heading excluded).
    var ownBlocks: Range<Int>
    var breadcrumb: [String]
    var slugPath: [String]
}

enum SectionBuilder {
    /// Splits `blocks` into the preamble (before the first heading) and the sections, with their
    /// unique slug paths (duplicates get `-2`, `-3`). A section ends on its last line that is
    /// neither blank nor one of `closingTags` (the lines of ``PromptTags`` that close a section).
    static func sections(
        of blocks: [Block], in source: SourceText, bodyStartLine: Int, closingTags: Set<Int> = []
    ) -> (preamble: Range<Int>, sections: [Section]) {
        func lastNonBlank(_ source: SourceText, from: Int, to: Int) -> Int {
            SectionBuilder.lastNonBlank(source, from: from, to: to, skipping: closingTags)
        }
        let headingIndices = blocks.indices.filter { blocks[$0].isHeading && blocks[$0].depth == 0 }
        let preamble = 0..<(headingIndices.first ?? blocks.count)
        var sections: [Section] = []
        var open: [Int] = []  // indices into `sections` of the enclosing headings
        var usedSlugs = Set<String>()
        // The next suffix to try for each taken path, so that a run of duplicates is linear.
        var nextSuffix: [String: Int] = [:]
        for (n, blockIndex) in headingIndices.enumerated() {
            let block = blocks[blockIndex]
            let level = block.headingLevel ?? 1
            while let last = open.last, sections[last].level >= level { open.removeLast() }
            let parent = open.last
            let title = block.text.trimming(" \t\n")
            let nextBlock = n + 1 < headingIndices.count ? headingIndices[n + 1] : blocks.count
            let ownEnd = n + 1 < headingIndices.count ? blocks[headingIndices[n + 1]].line - 1 : source.lines.count
            let base = parent.map { sections[$0].slugPath } ?? []
            var slug = Slug.make(title)
            let path = (base + [slug]).joined(separator: "/")
            if usedSlugs.contains(path) {
                var k = nextSuffix[path, default: 2]
                while usedSlugs.contains((base + ["\(slug)-\(k)"]).joined(separator: "/")) { k += 1 }
                nextSuffix[path] = k + 1
                slug = "\(slug)-\(k)"
            }
            usedSlugs.insert((base + [slug]).joined(separator: "/"))
            sections.append(
                Section(
                    title: title, level: level, line: block.line, endLine: ownEnd,
                    ownEndLine: lastNonBlank(source, from: block.line, to: ownEnd),
                    parent: parent, ownBlocks: (blockIndex + 1)..<nextBlock,
                    breadcrumb: (parent.map { sections[$0].breadcrumb } ?? []) + [title],
                    slugPath: base + [slug]))
            open.append(sections.count - 1)
        }
        // A section ends where the next heading of its level or higher starts.
        var closing: [Int] = []
        for index in sections.indices {
            while let last = closing.last, sections[last].level >= sections[index].level {
                sections[last].endLine = lastNonBlank(source, from: sections[last].line, to: sections[index].line - 1)
                closing.removeLast()
            }
            closing.append(index)
        }
        for index in closing {
            sections[index].endLine = lastNonBlank(source, from: sections[index].line, to: source.lines.count)
        }
        return (preamble, sections)
    }

    static func lastNonBlank(_ source: SourceText, from: Int, to: Int, skipping: Set<Int> = []) -> Int {
        var line = min(to, source.lines.count)
        while line > from, source.line(line).trimming(" \t").isEmpty || skipping.contains(line) { line -= 1 }
        return max(line, from)
    }
}

/// Readable id parts from headings: lower-case words joined by `-`, emoji and punctuation dropped.
enum Slug {
    static func make(_ title: String) -> String {
        var out = ""
        var pendingHyphen = false
        for scalar in title.lowercased().unicodeScalars {
            if Markers.isWordScalar(scalar) {
                if pendingHyphen, !out.isEmpty { out += "-" }
                pendingHyphen = false
                out.unicodeScalars.append(scalar)
            } else {
                pendingHyphen = true
            }
        }
        return out.isEmpty ? "section" : String(out.prefix(80))
    }
}
