/// Recognises the words and signs that mark what a heading or a block is: case-insensitive, with
/// emoji, numbering and punctuation ignored.
enum Markers {
    /// Lower-case words of `text` separated by single spaces, with `' - .` kept inside words.
    static func normalize(_ text: String) -> String {
        var out = ""
        for scalar in text.lowercased().replacingOccurrences(of: "’", with: "'").unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "'" || scalar == "-" {
                out.unicodeScalars.append(scalar)
            } else if out.last != " " {
                out += " "
            }
        }
        // Drop leading numbering such as "1." or "2)".
        var words = out.split(separator: " ")
        while let first = words.first, first.allSatisfy({ $0.isNumber || $0 == "-" }) { words.removeFirst() }
        return words.joined(separator: " ")
    }

    private static func has(_ normalized: String, anyOf phrases: [String]) -> Bool {
        let padded = " \(normalized) "
        return phrases.contains { padded.contains(" \($0) ") }
    }

    private static func starts(_ normalized: String, withAnyOf words: [String]) -> Bool {
        words.contains { normalized == $0 || normalized.hasPrefix("\($0) ") }
    }

    static func isAntiPatternHeading(_ title: String) -> Bool {
        let n = normalize(title)
        return hasBadSign(title)
            || has(n, anyOf: ["anti-pattern", "anti-patterns", "antipattern", "antipatterns", "anti patterns", "anti pattern",
                              "mistake", "mistakes", "pitfall", "pitfalls", "don't", "dont", "do not", "avoid", "avoiding",
                              "bad", "wrong", "red flag", "red flags", "gotcha", "gotchas", "when not to"])
            || starts(n, withAnyOf: ["never"])
    }

    static func isChecklistHeading(_ title: String) -> Bool {
        has(normalize(title), anyOf: ["checklist", "checklists", "check list", "verify", "verification", "before merging", "review"])
    }

    static func isDecisionTreeHeading(_ title: String) -> Bool {
        has(normalize(title), anyOf: ["decision tree", "decision trees", "decision", "decisions", "flowchart", "flow chart", "choosing", "choose", "which"])
    }

    static func isPatternHeading(_ title: String) -> Bool {
        let n = normalize(title)
        return hasGoodSign(title)
            || has(n, anyOf: ["pattern", "patterns", "best practice", "best practices", "recommended", "preferred", "correct", "solution", "solutions"])
            || starts(n, withAnyOf: ["do", "do's", "dos"])
    }

    static func isTableHeading(_ title: String) -> Bool {
        has(normalize(title), anyOf: ["comparison", "compared", "table", "vs", "versus", "matrix", "cheat sheet", "cheatsheet", "quick reference", "at a glance"])
    }

    static func hasBadSign(_ text: String) -> Bool {
        text.contains("❌") || text.contains("🚫") || text.contains("⛔") || text.contains("✗") || text.contains("✘")
    }

    static func hasGoodSign(_ text: String) -> Bool {
        text.contains("✅") || text.contains("✔") || text.contains("✓") || text.contains("👍")
    }

    /// The verdict of a short label such as `❌ Bad:`, `**Good**`, `// Don't` or `# Correct`.
    static func verdict(ofLabel text: String) -> Verdict {
        if hasBadSign(text) { return .bad }
        if hasGoodSign(text) { return .good }
        let n = normalize(text)
        if starts(n, withAnyOf: ["bad", "wrong", "incorrect", "don't", "dont", "do not", "avoid", "never", "anti-pattern", "before"]) { return .bad }
        if starts(n, withAnyOf: ["good", "correct", "right", "do", "better", "best", "preferred", "recommended", "fixed", "fix", "instead", "after"]) { return .good }
        return .neutral
    }

    /// The verdict written in a code block's first comment lines (`// ❌ Bad`, `# Good`).
    static func verdict(ofCode code: String) -> Verdict {
        var verdicts = Set<Verdict>()
        for line in code.split(separator: "\n", omittingEmptySubsequences: true).prefix(40) {
            let trimmed = line.trimming(" \t")
            // A trailing comment counts when it carries a sign: `view.glassEffect()  // ❌ ...`.
            if let comment = line.range(of: "//") ?? line.range(of: " # "), !trimmed.hasPrefix("//") {
                let tail = String(line[comment.upperBound...])
                if hasBadSign(tail) { verdicts.insert(.bad) } else if hasGoodSign(tail) { verdicts.insert(.good) }
                continue
            }
            guard trimmed.hasPrefix("//") || trimmed.hasPrefix("#") || trimmed.hasPrefix("--") || trimmed.hasPrefix("/*") else { continue }
            let label = String(trimmed.drop { "/#-* ".contains($0) })
            guard isLabel(label) else { continue }
            let verdict = verdict(ofLabel: label)
            if verdict != .neutral { verdicts.insert(verdict) }
        }
        return verdicts.count == 1 ? verdicts.first! : .neutral
    }

    /// Whether a comment reads as a verdict label (`❌ ...`, `Bad:`, `Good - ...`, `DON'T`) rather
    /// than a comment that happens to start with such a word (`// Do the work`).
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
