import SkillParser

/// A skill's code block as the index keeps it for `skill check`: every code example in a
/// language the checker reads (the background that tells common code from rare), and every ❌
/// block of an anti-pattern (a mistake to look for) with its ✅ fix.
public struct CodeRecord: Hashable, Sendable {
    /// What the block is to the checker.
    public enum Role: String, Codable, Hashable, Sendable {
        /// The ❌ code of an anti-pattern: a signature to match.
        case mistake
        /// Any code example: counted for how common each construct is.
        case code
    }

    public var role: Role
    public var sketch: CodeSketch
    /// For a mistake: why it is wrong (the anti-pattern's prose).
    public var why: String
    /// For a mistake: the id of the ✅ example that fixes it.
    public var fix: String?
    /// For a mistake: the ✅ code, sketched (the counter-signature) and as written.
    public var fixSketch: CodeSketch?
    public var fixCode: String

    public init(role: Role, sketch: CodeSketch, why: String = "", fix: String? = nil, fixSketch: CodeSketch? = nil, fixCode: String = "") {
        self.role = role
        self.sketch = sketch
        self.why = why
        self.fix = fix
        self.fixSketch = fixSketch
        self.fixCode = fixCode
    }

    /// The records of each entry of one document (or skill), by entry id: an example's code; an
    /// anti-pattern's ❌ blocks (or, with none marked, its unmarked ones) as mistakes, with the
    /// ✅ code of its own good blocks or of its `fix` example; and a ❌ example that no
    /// anti-pattern holds as a mistake of its own, fixed by the next ✅ example of its section.
    public static func records(for entries: [Entry]) -> [String: [CodeRecord]] {
        let byID = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var records: [String: [CodeRecord]] = [:]
        for entry in entries {
            guard case .antiPattern(let details) = entry.details else { continue }
            let bad = entry.code.filter { $0.verdict == .bad }
            let mistakes = bad.isEmpty ? entry.code.filter { $0.verdict == .neutral } : bad
            var good = entry.code.filter { $0.verdict == .good }
            if good.isEmpty, let fix = details.fix, let example = byID[fix] { good = example.code }
            let found = mistakes.compactMap { mistake($0, why: details.why, fix: details.fix, fixes: good) }
            if !found.isEmpty { records[entry.id] = found }
        }
        let covered = Set(
            entries.flatMap { entry -> [String] in
                guard case .antiPattern = entry.details else { return [] }
                return entry.code.map(\.code)
            })
        for (offset, entry) in entries.enumerated() {
            guard case .example(let example) = entry.details, let language = SourceLanguage(fence: example.language) else { continue }
            var found = entry.code.map { CodeRecord(role: .code, sketch: CodeSketch($0.code, language: language)) }
            let section = String(entry.id.split(separator: "~", maxSplits: 1)[0])
            if example.verdict == .bad, !entry.code.contains(where: { covered.contains($0.code) }) {
                let fix = entries[(offset + 1)...].prefix(4).first {
                    if case .example(let next) = $0.details, next.verdict == .good, $0.id.hasPrefix(section + "~") { return true }
                    return false
                }
                let why = byID[section]?.text.split(separator: "\n").first.map(String.init) ?? ""
                found += entry.code.compactMap { mistake($0, why: why, fix: fix?.id, fixes: fix?.code ?? []) }
            }
            records[entry.id] = found
        }
        return records
    }

    private static func mistake(_ block: CodeBlock, why: String, fix: String?, fixes: [CodeBlock]) -> CodeRecord? {
        guard let language = SourceLanguage(fence: block.language) else { return nil }
        let (bad, good) = split(block.code)
        let fixCode = (fixes.filter { SourceLanguage(fence: $0.language) == language }.map(\.code) + (good.isEmpty ? [] : [good]))
            .joined(separator: "\n")
        return CodeRecord(
            role: .mistake, sketch: CodeSketch(bad, language: language), why: why, fix: fix,
            fixSketch: fixCode.isEmpty ? nil : CodeSketch(fixCode, language: language), fixCode: fixCode)
    }

    /// A block that shows the mistake and its fix together: the lines from a `✅` line up to
    /// the next `❌` line are the fix, the rest the mistake. A block without `✅` is all mistake.
    static func split(_ code: String) -> (bad: String, good: String) {
        guard code.contains("✅") else { return (code, "") }
        var bad: [Substring] = []
        var good: [Substring] = []
        var inGood = false
        for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains("❌") { inGood = false } else if line.contains("✅") { inGood = true }
            if inGood { good.append(line) } else { bad.append(line) }
        }
        return (bad.joined(separator: "\n"), good.joined(separator: "\n"))
    }
}
