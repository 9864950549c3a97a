import Foundation

/// Query rewriting, the search's first stage: typos corrected, abbreviations and prefixes
/// expanded, other forms of each word added, each term quoted for FTS5.
extension Searcher {
    /// Expansions of a few abbreviations; each is matched beside the word itself.
    static let synonyms: [String: [String]] = [
        "vm": ["view model", "viewmodel"], "di": ["dependency injection"], "tca": ["composable architecture"],
        "a11y": ["accessibility"], "i18n": ["internationalization", "localization"], "l10n": ["localization"],
        "db": ["database"], "pr": ["pull request"], "prs": ["pull requests"], "ci": ["continuous integration"],
        "llm": ["language model"], "ui": ["user interface"], "auth": ["authentication", "oauth"],
        "repo": ["repository"], "repos": ["repositories"], "env": ["environment"], "envs": ["environments"],
        "config": ["configuration"], "cfg": ["configuration"], "creds": ["credentials"], "deps": ["dependencies"],
        "k8s": ["kubernetes"], "tf": ["terraform"], "js": ["javascript"], "ts": ["typescript"], "py": ["python"],
        "perf": ["performance"], "prod": ["production"], "impl": ["implementation"], "args": ["arguments"],
        "params": ["parameters"], "pkg": ["package"], "lib": ["library"], "dir": ["directory"],
        "msg": ["message"], "img": ["image"],
    ]

    /// The other way round: a word or two-word phrase of an expansion also matches its
    /// abbreviation ("pull request" finds a section that says "PR").
    static let abbreviations: [String: [String]] = {
        var reverse: [String: [String]] = [:]
        for (abbreviation, expansions) in synonyms.sorted(by: { $0.key < $1.key }) {
            for expansion in expansions { reverse[expansion, default: []].append(abbreviation) }
        }
        return reverse
    }()

    /// A term as a quoted FTS5 expression: the user's text never reaches MATCH unquoted. In a
    /// question (`inQuestion`), a compound's parts need not be neighbours.
    static func expression(_ term: SearchQuery.Term, inQuestion: Bool = false) -> String {
        func quote(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        /// The word and its abbreviations or expansions.
        func withAlternatives(_ w: String) -> [String] { [w] + (synonyms[w] ?? []) + (abbreviations[w] ?? []) }
        switch term {
        case .word(let w), .phrase(let w), .compound(let w):
            var itself = quote(w)
            if case .compound = term, inQuestion {
                itself = "(" + w.split(separator: " ").map { quote(String($0)) }.joined(separator: " AND ") + ")"
            }
            let others = withAlternatives(w).dropFirst().map(quote)
            return others.isEmpty ? itself : "(" + ([itself] + others).joined(separator: " OR ") + ")"
        case .prefix(let p):
            return quote(p) + "*"
        case .anyOf(let words):
            return "(" + quote(words[0]) + "* OR " + words.dropFirst().map(quote).joined(separator: " OR ") + ")"
        case .either(let words):
            // Each form keeps its own abbreviations ("localization" and its group still find "l10n").
            var seen = Set<String>()
            let all = words.flatMap(withAlternatives).filter { seen.insert($0).inserted }
            return "(" + all.map(quote).joined(separator: " OR ") + ")"
        }
    }

    /// Two query words that spell an abbreviated phrase ("pull request") become that phrase, so
    /// that it also matches the abbreviation.
    static func joinAbbreviatedPhrases(_ terms: [SearchQuery.Term]) -> [SearchQuery.Term] {
        var joined: [SearchQuery.Term] = []
        var i = 0
        while i < terms.count {
            if i + 1 < terms.count, case .word(let a) = terms[i], case .word(let b) = terms[i + 1], abbreviations["\(a) \(b)"] != nil {
                joined.append(.phrase("\(a) \(b)"))
                i += 2
            } else {
                joined.append(terms[i])
                i += 1
            }
        }
        return joined
    }

    /// Porter-stemmed tokens do not keep their endings (`pagination` is indexed as `pagin`), so a
    /// prefix is expanded to the unstemmed indexed words it starts (the 32 most common).
    func expandPrefixes(_ query: inout SearchQuery) throws {
        query.terms = try query.terms.map { term in
            guard case .prefix(let p) = term, let last = p.unicodeScalars.last,
                let next = UnicodeScalar(last.value + 1)
            else { return term }
            let upper = String(p.unicodeScalars.dropLast()) + String(Character(next))
            let words = try db.query(
                "SELECT term FROM words_vocab WHERE term >= ? AND term < ? ORDER BY doc DESC LIMIT 32",
                [.text(p), .text(upper)]
            ) { $0.text(0) }
            return words.isEmpty ? term : .anyOf([p] + words)
        }
    }

    // MARK: Word forms

    /// Each word also matches the forms of it that FTS5's Porter stemming keeps apart
    /// (``WordForms``): its base without `re-` or `un-` when the index holds the base in more
    /// entries ("relaunch" finds "launch"), and its derived forms and American spellings that the
    /// index holds ("quickly" finds "quick", "description" finds "describe", "colours" finds
    /// "colors"). BM25 still weighs each form by its own IDF, so an entry with the asker's word
    /// ranks above one with only another form.
    func addWordForms(_ query: inout SearchQuery) throws {
        query.terms = try query.terms.map { term in
            guard case .word(let word) = term else { return term }
            var forms = [word]
            let bases = WordForms.bases(of: word)
            if !bases.isEmpty {
                let held = try entriesHolding(word)
                if let base = try bases.first(where: { try entriesHolding($0) > held }) { forms.append(base) }
            }
            let variants = WordForms.variants(of: word)
            if !variants.isEmpty {
                let stem = try porterStem(word)
                for form in variants where !forms.contains(form) {
                    if try entriesHolding(form) > 0, try porterStem(form) != stem { forms.append(form) }
                }
            }
            if ranking.thesaurus != 0 {
                for other in Thesaurus.alternatives(of: word) where !forms.contains(other) {
                    if try entriesHolding(other) > 0 { forms.append(other) }
                }
            }
            return forms.count > 1 ? .either(forms) : term
        }
    }

    /// `word` as FTS5's tokenizer indexes it (its Porter stem).
    func porterStem(_ word: String) throws -> [UInt8] {
        try db.tokens(of: word, tokenizer: Schema.tokenizer, query: true).first?.term ?? []
    }

    /// How many entries hold `word`, unstemmed.
    func entriesHolding(_ word: String) throws -> Int64 {
        try db.scalar("SELECT doc FROM words_vocab WHERE term = ?", [.text(word)]) ?? 0
    }

    // MARK: Typos

    /// Whether an entry holds `word` under its Porter stem (FTS5 matches stems).
    func isFormOfIndexedWord(_ word: String) throws -> Bool {
        try db.scalar("SELECT rowid FROM fts WHERE fts MATCH ? LIMIT 1", [.text(Self.expression(.word(word)))]) != nil
    }

    /// ``EditDistance`` of two words, over bytes when both are ASCII (the same, and faster).
    static func distance(_ a: String, _ b: String, limit: Int) -> Int {
        if a.utf8.allSatisfy({ $0 < 0x80 }), b.utf8.allSatisfy({ $0 < 0x80 }) {
            return EditDistance.between(Array(a.utf8), Array(b.utf8), limit: limit)
        }
        return EditDistance.between(Array(a), Array(b), limit: limit)
    }

    /// Replaces each word the index has never seen by the nearest indexed word (two neighbouring
    /// letters swapped for words of 4 letters, edit distance 1 for 5 to 7, 2 from 8), the most
    /// common one on a tie. Returns the changes.
    func correctTypos(_ query: inout SearchQuery) throws -> [String: String] {
        var corrections: [String: String] = [:]
        var kept: [SearchQuery.Term] = []
        for term in query.terms {
            guard case .word(let word) = term, Self.synonyms[word] == nil, Thesaurus.alternatives(of: word).isEmpty,
                word.allSatisfy(\.isLetter)
            else {
                kept.append(term)
                continue
            }
            // A word the index holds in another form ("resetting" where it says "reset") is
            // spelt as meant: a "correction" would search for another word.
            if try entriesHolding(word) > 0 || isFormOfIndexedWord(word) {
                kept.append(term)
                continue
            }
            // A word of four letters is corrected only by swapping two neighbours ("bakc" →
            // "back", "lnie" → "line"): any other edit of so short a word makes another word.
            let swapOnly = word.count == 4
            let allowed = word.count >= 8 ? 2 : word.count >= 4 ? 1 : 0
            var best: (term: String, distance: Int, docs: Int64)?
            // So is a dictionary word that no entry holds: it is left out, as a word without a
            // correction is, never replaced.
            if allowed > 0, !isDictionaryWord(word), let first = word.first {
                let lower = String(first)
                let upper = String(UnicodeScalar(first.unicodeScalars.first!.value + 1).map(Character.init) ?? first)
                let rows = try db.query(
                    "SELECT term, doc FROM words_vocab WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?",
                    [.text(lower), .text(upper), .int(Int64(word.count - allowed)), .int(Int64(word.count + allowed))]
                ) { ($0.text(0), $0.int(1)) }
                let stem = Self.stem(word)
                for (candidate, docs) in rows {
                    if swapOnly, candidate.count != 4 || candidate.sorted() != word.sorted() { continue }
                    let d = min(
                        Self.distance(word, candidate, limit: allowed),
                        Self.distance(stem, Self.stem(candidate), limit: allowed))
                    guard d <= allowed else { continue }
                    if best == nil || d < best!.distance || (d == best!.distance && docs > best!.docs) {
                        best = (candidate, d, docs)
                    }
                }
            }
            if let best {
                corrections[word] = best.term
                kept.append(.word(best.term))
            } else if query.terms.count == 1 {
                kept.append(term)
            }
        }
        query.terms = kept
        return corrections
    }
}
