/// The snippet of a search result: the matched words in the context of the entry's text, else the
/// entry's first lines (a checklist's first items), never its title or breadcrumb again.
enum Snippets {
    /// At most this many characters of opening lines.
    static let length = 160

    /// - Parameters:
    ///   - text: FTS5's excerpt of the entry's text column, matched words between ``SearchResults/mark``.
    ///   - code: the same of its code column.
    ///   - opening: the entry's text, for the opening lines when the text has no match.
    static func make(text: String, code: String, opening: String) -> String {
        if text.contains(SearchResults.mark) { return Searcher.flatten(text) }
        let lines = Self.opening(opening)
        if !lines.isEmpty { return lines }
        return code.contains(SearchResults.mark) ? Searcher.flatten(code) : ""
    }

    /// The first non-empty lines of `text`, each on one line, joined by ` · ` up to ``length``
    /// characters (`…` when cut).
    static func opening(_ text: String) -> String {
        var out = ""
        for line in text.split(whereSeparator: \.isNewline) {
            let flat = Searcher.flatten(String(line))
            if flat.isEmpty { continue }
            let next = out.isEmpty ? flat : out + " · " + flat
            if next.count > length {
                return out.isEmpty ? String(flat.prefix(length - 1)) + "…" : out + " …"
            }
            out = next
        }
        return out
    }
}

extension Snippets {
    /// The snippets of the results `rowids` for the MATCH `expression` (an OR of quoted strings, as
    /// ``Searcher/expression(_:)`` writes them), made as FTS5's `snippet(fts, column, mark, mark,
    /// '…', 16)` makes them, from the same tokenizer: FTS5's own evaluated the whole OR again for
    /// each result, seeking every term in the index, most of a long question's snippet time.
    static func make(for rowids: [Int64], matching expression: String, in db: Database) throws -> [Int64: String] {
        guard !rowids.isEmpty else { return [:] }
        let phrases = try Self.phrases(of: expression).map { phrase in
            Phrase(
                terms: try db.tokens(of: phrase.text, tokenizer: Schema.tokenizer, query: true, prefix: phrase.prefix).map(\.term),
                prefix: phrase.prefix)
        }
        let excerpt = { (text: String) in
            Self.excerpt(of: text, tokens: try db.tokens(of: text, tokenizer: Schema.tokenizer), phrases: phrases)
        }
        // Bound rowids: one prepared statement per count of results, not one per search.
        let sql =
            "SELECT rowid, inflate(text), inflate(code) FROM entries WHERE rowid IN (\(rowids.map { _ in "?" }.joined(separator: ",")))"
        var snippets: [Int64: String] = [:]
        for (rowid, text, code) in try db.query(sql, rowids.map { .int($0) }, { ($0.int(0), $0.text(1), $0.text(2)) }) {
            let marked = try excerpt(text)
            // The code's excerpt only where ``make(text:code:opening:)`` reads it.
            let needsCode = !marked.contains(SearchResults.mark) && opening(text).isEmpty
            snippets[rowid] = make(text: marked, code: needsCode ? try excerpt(code) : "", opening: text)
        }
        return snippets
    }

    /// A phrase of a MATCH expression: its terms as the tokenizer gives them, the last one a prefix
    /// when the quoted string is followed by `*`.
    struct Phrase: Equatable {
        var terms: [[UInt8]]
        var prefix = false

        /// Whether the phrase starts at token `i` of `tokens`.
        func matches(_ tokens: [FTS5Token], at i: Int) -> Bool {
            guard !terms.isEmpty, i + terms.count <= tokens.count else { return false }
            for (k, term) in terms.enumerated() {
                let token = tokens[i + k].term
                let last = k == terms.count - 1
                if (last && prefix) ? !token.starts(with: term) : token != term { return false }
            }
            return true
        }
    }

    /// The quoted strings of a MATCH expression in order (FTS5 numbers its phrases so), `""` read
    /// as one quote, each with whether a `*` follows it.
    static func phrases(of expression: String) -> [(text: String, prefix: Bool)] {
        var phrases: [(text: String, prefix: Bool)] = []
        var characters = expression.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let c = pending {
                pending = nil
                return c
            }
            return characters.next()
        }
        while let c = next() {
            guard c == "\"" else { continue }
            var text = ""
            while let d = next() {
                if d == "\"" {
                    let after = next()
                    if after == "\"" {
                        text.append("\"")
                        continue
                    }
                    pending = after
                    break
                }
                text.append(d)
            }
            let star = next()
            if star != "*" { pending = star }
            phrases.append((text, star == "*"))
        }
        return phrases
    }

    /// FTS5's `snippet()` of one column (SQLite 3.40's fts5_aux.c): the window of ``window`` tokens
    /// holding the most distinct phrases (1,000 for a phrase's first instance, 1 for a repeat),
    /// or starting a sentence before the best instance when that scores higher (+120 at the
    /// column's start, +100 elsewhere); instances between ``SearchResults/mark``, overlapping ones
    /// as one; `…` where the window cuts the text.
    static func excerpt(of text: String, tokens: [FTS5Token], phrases: [Phrase]) -> String {
        let bytes = Array(text.utf8)
        let count = tokens.count
        // Every instance of every phrase, by position, then phrase.
        var instances: [(position: Int, phrase: Int)] = []
        for (p, phrase) in phrases.enumerated() {
            for i in tokens.indices where phrase.matches(tokens, at: i) { instances.append((i, p)) }
        }
        instances.sort { ($0.position, $0.phrase) < ($1.position, $1.phrase) }

        // The first token of each sentence: the first one, and each after `.` or `:` and a space.
        var sentences: [Int] = []
        for (i, token) in tokens.enumerated() {
            if i == 0 {
                sentences.append(0)
                continue
            }
            var j = token.start - 1
            var c: UInt8 = 0
            while j >= 0 {
                c = bytes[j]
                if c != 0x20, c != 0x09, c != 0x0A, c != 0x0D { break }
                j -= 1
            }
            if j != token.start - 1, c == UInt8(ascii: ".") || c == UInt8(ascii: ":") { sentences.append(i) }
        }

        // The instances in a window are found by a binary search, not a pass over all of them: a
        // long section that repeats a query word has as many instances as words (a pass per
        // instance took 12 s for 100,000, FTS5's own snippet() 63 s).
        func firstInstance(from start: Int) -> Int {
            var low = 0
            var high = instances.count
            while low < high {
                let mid = (low + high) / 2
                if instances[mid].position < start { low = mid + 1 } else { high = mid }
            }
            return low
        }
        func score(from start: Int) -> (score: Int, adjusted: Int) {
            var seen = Set<Int>()
            var score = 0
            var first = -1
            var last = 0
            for instance in instances[firstInstance(from: start)...].prefix(while: { $0.position < start + window }) {
                score += seen.insert(instance.phrase).inserted ? 1_000 : 1
                if first < 0 { first = instance.position }
                last = instance.position + phrases[instance.phrase].terms.count
            }
            var adjusted = first - (window - (last - first)) / 2
            if adjusted + window > count { adjusted = count - window }
            return (score, max(adjusted, 0))
        }
        var bestScore = 0
        var bestStart = 0
        // The sentence an instance stands in: instances come in order, so it only moves forward.
        var s = 0
        for instance in instances {
            let here = score(from: instance.position)
            if here.score > bestScore { (bestScore, bestStart) = (here.score, here.adjusted) }
            guard !sentences.isEmpty, count > window else { continue }
            while s < sentences.count - 1, sentences[s + 1] <= instance.position { s += 1 }
            if sentences[s] < instance.position {
                let sentenceScore = score(from: sentences[s]).score + (sentences[s] == 0 ? 120 : 100)
                if sentenceScore > bestScore { (bestScore, bestStart) = (sentenceScore, sentences[s]) }
            }
        }

        // Overlapping instances are one highlighted run.
        var nextInstance = 0
        func nextRun() -> (start: Int, end: Int) {
            var run = (start: -1, end: -1)
            while nextInstance < instances.count {
                let instance = instances[nextInstance]
                let end = instance.position - 1 + phrases[instance.phrase].terms.count
                if run.start < 0 {
                    run = (instance.position, end)
                } else if instance.position <= run.end {
                    run.end = max(run.end, end)
                } else {
                    break
                }
                nextInstance += 1
            }
            return run
        }
        let mark = Array(SearchResults.mark.utf8)
        let ellipsis = Array("…".utf8)
        let rangeEnd = bestStart + window - 1
        var out: [UInt8] = bestStart > 0 ? ellipsis : []
        var run = nextRun()
        while run.start >= 0 && run.start < bestStart { run = nextRun() }
        var copied = 0
        for (position, token) in tokens.enumerated() where position >= bestStart && position <= rangeEnd {
            if bestStart > 0 && position == bestStart { copied = token.start }
            if position == run.start {
                out += bytes[copied..<token.start] + mark
                copied = token.start
            }
            if position == run.end {
                if run.start < bestStart { out += mark }
                out += bytes[copied..<token.end] + mark
                copied = token.end
                run = nextRun()
            }
            if position == rangeEnd {
                out += bytes[copied..<token.end]
                copied = token.end
                if position >= run.start && position < run.end { out += mark }
            }
        }
        out += rangeEnd >= count - 1 ? bytes[copied...] : ArraySlice(ellipsis)
        return String(decoding: out, as: UTF8.self)
    }

    /// The tokens of a snippet's window.
    static let window = 16
}
