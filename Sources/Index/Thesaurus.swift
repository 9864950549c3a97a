/// Everyday words of a developer's question and the words skills write for the same thing ("a
/// fake" for a mock or stub, "freezes" for a hang, "flaky" for intermittent), each group matched
/// as one term beside the asker's word (``Searcher``'s word forms). Only near-synonyms in
/// software; a word with another common sense there is left out.
enum Thesaurus {
    /// Groups of words that stand for one another.
    static let groups: [[String]] = [
        ["fake", "mock", "stub"], ["freeze", "frozen", "hang", "unresponsive"],
        ["flaky", "intermittent", "nondeterministic"], ["delete", "remove"], ["folder", "directory"],
        ["bug", "defect"], ["blank", "empty"], ["culprit", "cause"],
        ["popup", "modal", "dialog"], ["dropdown", "picker"], ["hotkey", "shortcut"],
        ["translate", "localize"], ["translation", "localization"], ["screenshot", "snapshot"],
        ["persist", "save"], ["revert", "rollback", "undo"], ["credential", "secret"], ["email", "mail"],
        ["cron", "schedule"],
    ]

    /// The other words of the group of `word`, or of the word it inflects ("freezes", "mocked").
    static func alternatives(of word: String) -> [String] {
        guard let group = index[word] else { return [] }
        return groups[group].filter { $0 != word && !inflections(of: $0).contains(word) }
    }

    /// Each member and its inflections, to its group.
    private static let index: [String: Int] = {
        var index: [String: Int] = [:]
        for (group, words) in groups.enumerated() {
            for word in words {
                for form in inflections(of: word) { index[form] = group }
            }
        }
        return index
    }()

    /// A word and its regular inflections: `-s`, `-es`, `-ed`, `-ing` (a final `e` or `y` as English
    /// drops or turns it).
    static func inflections(of word: String) -> [String] {
        let stem = word.hasSuffix("e") ? String(word.dropLast()) : word
        var forms = [word, word + "s", word + "es", stem + "ed", stem + "ing"]
        if word.hasSuffix("y") { forms += [word.dropLast() + "ies", word.dropLast() + "ied"] }
        return forms
    }
}
