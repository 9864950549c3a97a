import Foundation

/// One markdown document parsed into entries.
public struct ParsedDocument: Sendable {
    public var document: Document
    public var frontmatter: Frontmatter
    public var entries: [Entry]
    public var diagnostics: [Diagnostic]
    let source: SourceText
}

/// Parses one markdown document of a skill: frontmatter, cmark blocks, sections, entries and
/// diagnostics. Never throws and never stops at the first problem.
public enum DocumentParser {
    /// The default for the most bytes of a document parsed: a longer one is read up to the last
    /// line end within this many bytes, and reported.
    public static let largeFileBytes = 4 << 20
    /// Above this many headings a document is still parsed, but reported.
    public static let manyHeadings = 5_000
    /// Above this nesting depth a document is still parsed, but reported.
    public static let deepNesting = 100

    /// Parses `data`, the document at `path` (relative to its root) of skill `skill`.
    /// - Parameters:
    ///   - key: the document's path inside its skill without `.md` (`SKILL`, `references/state`).
    ///   - isSkillFile: whether this is the skill's SKILL.md, whose frontmatter is required.
    ///   - maxBytes: the most bytes read; the rest of a longer document is left out, with a warning.
    public static func parse(_ data: Data, path: String, skill: String, key: String, isSkillFile: Bool, maxBytes: Int = largeFileBytes)
        -> ParsedDocument
    {
        parse(data, path: path, key: key, isSkillFile: isSkillFile, maxBytes: maxBytes) { _ in skill }
    }

    /// Parses `data` like ``parse(_:path:skill:key:isSkillFile:)``, taking the skill's name from
    /// the document's own frontmatter (SKILL.md names its skill).
    public static func parse(
        _ data: Data, path: String, key: String, isSkillFile: Bool, maxBytes: Int = largeFileBytes,
        skillName: (Frontmatter) -> String
    ) -> ParsedDocument {
        var diagnostics: [Diagnostic] = []
        let read = firstPart(of: data, maxBytes: maxBytes)
        let source = SourceText(bytes: read, path: path, diagnostics: &diagnostics)
        if source.lines.allSatisfy({ $0.trimming(" \t").isEmpty }) {
            diagnostics.append(
                Diagnostic(.warning, .emptyFile, "the file is empty; write the skill's instructions in it", path: path, line: 1))
        }
        if read.count < data.count {
            diagnostics.append(
                Diagnostic(
                    .warning, .largeFile,
                    "the file is \(data.count) bytes, over the limit of \(maxBytes); only lines 1-\(source.lines.count) are read and indexed; split it into references of a few KB",
                    path: path, line: source.lines.count))
        }
        let front = FrontmatterParser.parse(
            source, path: path, required: isSkillFile, diagnostics: &diagnostics)
        let body = source.text(fromLine: front.bodyStartLine)
        var blocks = CMarkConverter.blocks(of: body, lineOffset: front.bodyStartLine - 1)
        var closingTags = Set<Int>()
        if let tagged = PromptTags.headings(in: source, bodyStartLine: front.bodyStartLine, blocks: blocks) {
            blocks = CMarkConverter.blocks(of: tagged.text[...], lineOffset: front.bodyStartLine - 1)
            closingTags = tagged.closingLines
        }
        check(blocks, source, path: path, diagnostics: &diagnostics)

        let doc = DocumentContext(skill: skillName(front.frontmatter), key: key, path: path, source: source, blocks: blocks)
        let (preamble, sections) = SectionBuilder.sections(
            of: blocks, in: source, bodyStartLine: front.bodyStartLine, closingTags: closingTags)
        let extractor = EntryExtractor(doc: doc, preamble: preamble, sections: sections)
        return ParsedDocument(
            document: Document(path: path, lineCount: source.lines.count, byteCount: data.count),
            frontmatter: front.frontmatter, entries: extractor.entries, diagnostics: diagnostics, source: source)
    }

    /// The first `maxBytes` of `data`, cut after the last line end within them (or, for one
    /// enormous line, at a UTF-8 character boundary).
    static func firstPart(of data: Data, maxBytes: Int) -> Data {
        guard data.count > maxBytes else { return data }
        let base = data.startIndex
        var end = base + maxBytes
        if let newline = data[base..<end].lastIndex(of: 0x0A) {
            end = newline + 1
        } else {
            while end > base, data[end] & 0xC0 == 0x80 { end -= 1 }
        }
        return data.subdata(in: base..<end)
    }

    /// The markdown after the frontmatter, as written, with the blank lines that follow the
    /// frontmatter dropped: what an agent is given when it activates a skill.
    public static func body(of data: Data) -> String {
        var ignored: [Diagnostic] = []
        let source = SourceText(bytes: data, path: "", diagnostics: &ignored)
        let front = FrontmatterParser.parse(source, path: "", required: false, diagnostics: &ignored)
        var start = front.bodyStartLine
        while start <= source.lines.count, source.line(start).trimming(" \t").isEmpty { start += 1 }
        return String(source.text(fromLine: start))
    }

    /// Reports fences that never close, very deep nesting and very many headings.
    private static func check(_ blocks: [Block], _ source: SourceText, path: String, diagnostics: inout [Diagnostic]) {
        var headings = 0
        var reportedDepth = false
        for block in blocks {
            switch block.kind {
            case .heading:
                headings += 1
            case .code:
                if let fence = openingFence(source.line(block.line)),
                    !closes(source.line(block.endLine), fence) || block.endLine == block.line
                {
                    let closing = String(repeating: fence.char, count: fence.count)
                    let lost =
                        switch block.endLine - block.line {
                        case ...0:
                            "the code fence opened here, on the document's last line, never closes; add a closing \(closing) line or remove it"
                        case 1:
                            "the code fence opened here never closes, so line \(block.endLine) reads as code; add a closing \(closing) line"
                        default:
                            "the code fence opened here never closes, so lines \(block.line + 1)-\(block.endLine) read as code; add a closing \(closing) line"
                        }
                    diagnostics.append(Diagnostic(.warning, .unclosedFence, lost, path: path, line: block.line))
                }
            default:
                break
            }
            if block.depth > deepNesting, !reportedDepth {
                reportedDepth = true
                diagnostics.append(
                    Diagnostic(
                        .warning, .deepNesting,
                        "lists or quotes are nested more than \(deepNesting) levels deep here; flatten them",
                        path: path, line: block.line))
            }
        }
        if headings > manyHeadings {
            diagnostics.append(
                Diagnostic(
                    .warning, .manyHeadings,
                    "the file has \(headings) headings, more than \(manyHeadings); split it into several documents",
                    path: path, line: 1))
        }
    }

    /// The fence character and length on a code block's first line (after container markers).
    private static func openingFence(_ line: Substring) -> (char: Character, count: Int)? {
        for char in ["`", "~"] as [Character] {
            guard let start = line.firstIndex(of: char) else { continue }
            let run = line[start...].prefix { $0 == char }.count
            if run >= 3 { return (char, run) }
        }
        return nil
    }

    private static func closes(_ line: Substring, _ fence: (char: Character, count: Int)) -> Bool {
        let trimmed = line.trimming(" \t")
        let run = trimmed.reversed().prefix { $0 == fence.char }.count
        guard run >= fence.count else { return false }
        return trimmed.dropLast(run).allSatisfy { $0 == " " || $0 == "\t" || $0 == ">" }
    }
}
