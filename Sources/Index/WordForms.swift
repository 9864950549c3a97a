/// Other forms of an asker's word that Porter stemming keeps apart from it, for a search to match
/// beside the word itself (``Searcher``'s word forms). Each is a candidate only: the searcher adds
/// one when the index holds it and FTS5 would not already match it.
enum WordForms {
    /// The word without a `re-` or `un-` prefix ("relaunch" → "launch", "untested" → "tested"):
    /// added only when the index holds the base in more entries than the word, since the prefix
    /// can change the meaning ("unsafe"), and the asker's word is often the rarer one.
    static func bases(of word: String) -> [String] {
        ["re", "un"].filter { word.hasPrefix($0) && word.count >= $0.count + 4 }.map { String(word.dropFirst($0.count)) }
    }

    /// Derived forms and spellings that Porter stemming does not join: an adverb and its
    /// adjective ("quickly" → "quick", "easily" → "easy", "reliably" → "reliable"), a noun and
    /// the person or thing it is of ("ownership" → "owner", "membership" → "member"), a noun of a
    /// verb and the verb ("description" ↔ "describe", "decision" ↔ "decide", "extension" →
    /// "extend", "analysis" ↔ "analyze", "failure" → "fail"), and a British spelling and the
    /// American one ("colours" → "colors", "initialise" → "initialize", "analyse" → "analyze",
    /// "centre" → "center", "licence" → "license", "catalogue" → "catalog").
    static func variants(of word: String) -> [String] {
        guard word.count >= 5, word.allSatisfy({ $0.isASCII && $0.isLetter }) else { return [] }
        var forms: [String] = []
        for rule in suffixRules where word.hasSuffix(rule.suffix) && word.count - rule.suffix.count >= rule.stem {
            forms += rule.replacements.map { word.dropLast(rule.suffix.count) + $0 }
            break
        }
        for (british, american, endings) in britishSpellings {
            guard let range = word.range(of: british, options: .backwards),
                word.distance(from: word.startIndex, to: range.lowerBound) >= 3,
                endings.contains(String(word[range.upperBound...]))
            else { continue }
            forms.append(word.replacingCharacters(in: range, with: american))
        }
        return forms
    }

    /// A word ending in `suffix`, of at least `stem` letters before it, also matches these
    /// endings instead. The first rule that applies is the only one.
    static let suffixRules: [(suffix: String, stem: Int, replacements: [String])] = [
        ("ily", 3, ["y"]), ("bly", 3, ["ble"]), ("ly", 4, [""]), ("ships", 4, [""]), ("ship", 4, [""]),
        ("ptions", 3, ["be"]), ("ption", 3, ["be"]), ("sions", 3, ["de", "d"]), ("sion", 3, ["de", "d"]),
        ("cribes", 3, ["cription"]), ("cribe", 3, ["cription"]),
        ("cides", 2, ["cision"]), ("cide", 2, ["cision"]), ("cludes", 2, ["clusion"]), ("clude", 2, ["clusion"]),
        ("ysis", 3, ["yze"]), ("yses", 3, ["yze"]), ("yzes", 3, ["ysis"]), ("yze", 3, ["ysis"]),
        ("ailures", 1, ["ail"]), ("ailure", 1, ["ail"]),
    ]

    /// British spellings, their American forms, and the endings that may follow them (after at
    /// least three letters: "hours" is not "hors").
    static let britishSpellings: [(british: String, american: String, endings: Set<String>)] = [
        ("our", "or", ["", "s", "ed", "ing", "ite", "ites", "able", "ful"]),
        ("is", "iz", ["e", "es", "ed", "ing", "ation", "ations", "er", "ers"]),
        ("ys", "yz", ["e", "es", "ed", "ing", "er", "ers"]),
        ("tre", "ter", ["", "s", "d"]),
        ("ence", "ense", ["", "s", "d"]),
        ("ogue", "og", ["", "s"]),
    ]
}
