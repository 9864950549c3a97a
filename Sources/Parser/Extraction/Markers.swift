/// Recognises the words and signs that mark what a heading or a block is: case-insensitive, with
/// emoji, numbering and punctuation ignored.
enum Markers {
    /// Lower-case words of `text`, with `'` and `-` kept inside words and leading numbering
    /// such as "1." or "2)" dropped.
    static func words(_ text: String) -> [Substring] {
        var out = ""
        var spaced = true
        for scalar in text.lowercased().unicodeScalars {
            if scalar == "’" || scalar == "'" || scalar == "-" || isWordScalar(scalar) {
                out.unicodeScalars.append(scalar == "’" ? "'" : scalar)
                spaced = false
            } else if !spaced {
                out += " "
                spaced = true
            }
        }
        let words = out.split(separator: " ")
        let start = words.firstIndex { !$0.allSatisfy { $0.isNumber || $0 == "-" } } ?? words.endIndex
        return Array(words[start...])
    }

    /// A letter or digit; ASCII is decided without Unicode's property tables.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            ? ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            : scalar.properties.isAlphabetic
    }

    /// Whether `words` hold any of `phrases` as consecutive words.
    static func has(_ words: [Substring], anyOf phrases: [[Substring]]) -> Bool {
        phrases.contains { parts in
            guard parts.count <= words.count else { return false }
            return (0...(words.count - parts.count)).contains { start in
                parts.indices.allSatisfy { words[start + $0] == parts[$0] }
            }
        }
    }

    /// Whether `words` start with any of `phrases`.
    static func starts(_ words: [Substring], withAnyOf phrases: [[Substring]]) -> Bool {
        phrases.contains { parts in parts.count <= words.count && zip(parts, words).allSatisfy { $0 == $1 } }
    }

    /// Phrases written as one string each, split into words once.
    static func phrases(_ list: [String]) -> [[Substring]] {
        list.map { $0.split(separator: " ") }
    }

    static let antiPatternWords = phrases([
        "anti-pattern", "anti-patterns", "antipattern", "antipatterns", "anti patterns", "anti pattern",
        "mistake", "mistakes", "pitfall", "pitfalls", "don't", "dont", "do not", "avoid", "avoiding",
        "bad", "wrong", "red flag", "red flags", "gotcha", "gotchas", "when not to",
    ])
    static let checklistWords = phrases(["checklist", "checklists", "check list", "verify", "verification", "before merging", "review"])
    static let decisionWords = phrases([
        "decision tree", "decision trees", "decision", "decisions", "flowchart", "flow chart", "choosing", "choose", "which",
    ])
    static let patternWords = phrases([
        "pattern", "patterns", "best practice", "best practices", "recommended", "preferred", "correct", "solution", "solutions",
    ])
    static let tableWords = phrases([
        "comparison", "compared", "table", "vs", "versus", "matrix", "cheat sheet", "cheatsheet", "quick reference", "at a glance",
    ])
    static let badLabels = phrases(["bad", "wrong", "incorrect", "don't", "dont", "do not", "avoid", "never", "anti-pattern", "before"])
    static let goodLabels = phrases([
        "good", "correct", "right", "do", "better", "best", "preferred", "recommended", "fixed", "fix", "instead", "after",
    ])

    private static let badSigns: Set<Unicode.Scalar> = ["❌", "🚫", "⛔", "✗", "✘"]
    private static let goodSigns: Set<Unicode.Scalar> = ["✅", "✔", "✓", "👍"]

    static func hasBadSign(_ text: some StringProtocol) -> Bool {
        text.hasAny(of: badSigns)
    }

    static func hasGoodSign(_ text: some StringProtocol) -> Bool {
        text.hasAny(of: goodSigns)
    }

    /// The verdict of a short label such as `❌ Bad:`, `**Good**`, `// Don't` or `# Correct`.
    static func verdict(ofLabel text: String) -> Verdict {
        if hasBadSign(text) { return .bad }
        if hasGoodSign(text) { return .good }
        let w = words(text)
        if starts(w, withAnyOf: badLabels) { return .bad }
        if starts(w, withAnyOf: goodLabels) { return .good }
        return .neutral
    }

    /// The verdict written in a code block's comments (`// ❌ Bad`, `# Good`, `x()  // ✅`):
    /// one verdict, or neutral when it has none or both.
    static func verdict(ofCode code: String) -> Verdict {
        var verdicts = Set<Verdict>()
        var checked = 0
        for line in SourceText.split(code) where !line.isEmpty {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            // Comment starts are ASCII: `//`, `/*`, `#`, `--`.
            let start = Array(trimmed.utf8.prefix(2))
            let isComment =
                start.first == 0x23 || (start.count == 2 && (start == [0x2F, 0x2F] || start == [0x2F, 0x2A] || start == [0x2D, 0x2D]))
            if isComment, checked < 40 {
                checked += 1
                let label = String(trimmed.drop { $0 == "/" || $0 == "#" || $0 == "-" || $0 == "*" || $0 == " " })
                if startsWithVerdictWord(label), isLabel(label) {
                    let verdict = verdict(ofLabel: label)
                    if verdict != .neutral { verdicts.insert(verdict) }
                }
            } else if hasBadSign(line) {
                // A trailing comment counts when it carries a sign: `view.glassEffect()  // ❌`.
                verdicts.insert(.bad)
            } else if hasGoodSign(line) {
                verdicts.insert(.good)
            }
        }
        return verdicts.count == 1 ? verdicts.first! : .neutral
    }

    /// Whether a comment reads as a verdict label (`❌ ...`, `Bad:`, `Good - ...`, `DON'T`) rather
    /// than a comment that happens to start with such a word (`// Do the work`).
    /// First words of labels, lower-cased: a cheap test before the full one.
    private static let labelFirstWords = Set((badLabels + goodLabels).compactMap { $0.first.map(String.init) })

    private static func startsWithVerdictWord(_ comment: String) -> Bool {
        if hasBadSign(comment) || hasGoodSign(comment) { return true }
        let first = comment.prefix { $0.isLetter || $0 == "'" || $0 == "-" }.lowercased()
        return labelFirstWords.contains(first)
    }

    private static func isLabel(_ comment: String) -> Bool {
        if hasBadSign(comment) || hasGoodSign(comment) { return true }
        let words = comment.split(separator: " ")
        guard let first = words.first else { return false }
        if words.count <= 2 { return true }
        return first.hasSuffix(":") || (words.count > 1 && ["-", "—", "–", ":"].contains(String(words[1])))
            || first.allSatisfy { $0.isUppercase || $0 == "'" }
    }

    /// Languages that mark a fence as plain text rather than code.
    static let textLanguages: Set<String> = ["", "text", "txt", "plain", "plaintext", "none", "ascii"]
}
