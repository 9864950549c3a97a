import SkillParser

/// A parsed search query: free words, phrases, prefixes and filters. Any text is a query: no
/// input reaches SQLite's MATCH syntax unquoted.
///
/// Syntax: `word` (all words must match; when nothing matches them all, any word), `"exact phrase"`,
/// `prefix*`, `kind:anti-pattern`, `skill:NAME`, `lang:swift`. Swift symbols (`@Observable`,
/// `#expect`, `.task(id:)`) are words that also prefer entries whose code uses them.
public struct SearchQuery: Hashable, Sendable {
    /// One searchable part of a query.
    public enum Term: Hashable, Sendable {
        /// A word.
        case word(String)
        /// Words that must appear together in this order: a quoted phrase, or an abbreviation's
        /// expansion ("view model").
        case phrase(String)
        /// A word written with punctuation between its parts (`logged-out`, `sleep(50)`,
        /// `client.dispose`), its parts joined by spaces: a phrase of them in a keyword query;
        /// in a question, all of them in any order (the asker's spelling of a compound is often
        /// not the skill's: `log out`, `sleep()` … `50`).
        case compound(String)
        /// Words starting with this text.
        case prefix(String)
        /// A prefix (first) and the indexed words it starts: any of them matches.
        case anyOf([String])
        /// A word (first) and the other forms of it it also matches (``WordForms``): its base
        /// without `re-` or `un-` ("relaunch" also finds "launch"), a derived form ("quickly"
        /// finds "quick"), an American spelling ("colours" finds "colors").
        case either([String])
    }

    /// Words, phrases and prefixes, in query order, without stop words.
    public var terms: [Term] = []
    /// Swift symbols of the query (`@Observable`, `#expect`, `.task`), as written.
    public var symbols: [String] = []
    /// `kind:` filters (any of them).
    public var kinds: [EntryKind] = []
    /// `skill:` filters (any of them).
    public var skills: [String] = []
    /// `lang:` filters: entries with a code block in one of these languages.
    public var languages: [String] = []

    /// At most this many terms are kept; the rest of a very long query is ignored.
    public static let maxTerms = 24
    /// Longer words are cut to this many characters.
    public static let maxTermLength = 64

    /// Words that carry no meaning in a question ("how do I …").
    static let stopWords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "could", "do", "does", "for", "from",
        "get", "how", "i", "if", "in", "into", "is", "isn", "isnt", "it", "its", "me", "my", "no", "not", "of",
        "on", "or", "should", "so", "that", "the", "their", "them", "there", "these", "this", "to", "vs",
        "versus", "was", "what", "when", "where", "which", "who", "why", "will", "with", "would", "you",
        "your", "t", "s", "don", "doesn", "won", "can't", "cant", "near",
        // Pronouns, auxiliaries and hedges of questions asked in one's own words.
        "am", "were", "been", "being", "has", "have", "had", "did", "done", "we", "our", "us", "they", "he", "she",
        "his", "her", "someone", "something", "anything", "ok", "okay", "really", "just", "please", "than",
        "then", "very", "too", "also", "any", "some", "im", "ive", "ll", "ve", "re", "d", "m",
    ]

    /// Kind names users type, beside the canonical ones.
    static let kindAliases: [String: EntryKind] = [
        "antipattern": .antiPattern, "anti_pattern": .antiPattern, "mistake": .antiPattern,
        "tree": .decisionTree, "decision": .decisionTree, "decisiontree": .decisionTree,
        "check": .checklist, "code": .example, "examples": .example, "patterns": .pattern,
    ]

    public init() {}

    /// Parses `text`. Never fails: unbalanced quotes, operators and punctuation are plain text.
    public init(parsing text: String) {
        var words: [Term] = []
        var chunks: [(text: String, quoted: Bool)] = []
        var current = ""
        var quoted = false
        for char in text.prefix(4096) {
            if char == "\"" {
                if quoted || !current.isEmpty { chunks.append((current, quoted)) }
                current = ""
                quoted.toggle()
            } else if !quoted, char.isWhitespace {
                if !current.isEmpty { chunks.append((current, false)) }
                current = ""
            } else {
                current.append(char)
            }
        }
        if !current.isEmpty { chunks.append((current, quoted)) }

        for (chunk, isQuoted) in chunks {
            if isQuoted {
                let parts = Self.tokens(chunk)
                if !parts.isEmpty { words.append(.phrase(parts.joined(separator: " "))) }
                continue
            }
            if let colon = chunk.firstIndex(of: ":"), colon != chunk.startIndex {
                let key = chunk[..<colon].lowercased()
                let value = String(chunk[chunk.index(after: colon)...])
                if !value.isEmpty, ["kind", "skill", "lang", "language"].contains(key) {
                    switch key {
                    case "kind":
                        let v = value.lowercased()
                        kinds.append(Self.kindAliases[v] ?? EntryKind(rawValue: v))
                    case "skill": skills.append(value)
                    default: languages.append(value.lowercased())
                    }
                    continue
                }
            }
            if let first = chunk.first, "@#.".contains(first), chunk.dropFirst().first?.isLetter == true {
                let name = chunk.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                symbols.append(String(first) + name)
            }
            let parts = Self.tokens(chunk)
            guard !parts.isEmpty else { continue }
            if chunk.contains("'") || chunk.contains("’") {
                words += parts.map { .word($0) }
            } else if chunk.hasSuffix("*"), parts.count == 1 {
                words.append(.prefix(parts[0]))
            } else if parts.count == 1 {
                words.append(.word(parts[0]))
            } else {
                words.append(.compound(parts.joined(separator: " ")))
            }
        }
        let meaningful = words.filter {
            if case .word(let w) = $0 { return !Self.stopWords.contains(w) }
            return true
        }
        terms = Array((meaningful.isEmpty ? words : meaningful).prefix(Self.maxTerms))
    }

    /// Whether the query has nothing to search for and no filter.
    public var isEmpty: Bool { terms.isEmpty && kinds.isEmpty && skills.isEmpty && languages.isEmpty }

    /// The lower-cased letter-and-digit runs of `text`, as the index's tokenizer sees them.
    static func tokens(_ text: String) -> [String] {
        if let tokens = asciiTokens(text) { return tokens }
        var result: [String] = []
        var current = ""
        for char in text.lowercased() {
            // ASCII first: Character's Unicode properties are slow, and most text is ASCII.
            let isWordCharacter =
                char.isASCII
                ? char.asciiValue.map { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) } ?? false
                : char.isLetter || char.isNumber
            if isWordCharacter {
                current.append(char)
            } else if !current.isEmpty {
                result.append(String(current.prefix(maxTermLength)))
                current = ""
            }
        }
        if !current.isEmpty { result.append(String(current.prefix(maxTermLength))) }
        return result
    }

    /// ``tokens(_:)`` of ASCII text, byte by byte (titles and queries mostly are); `nil` for other text.
    private static func asciiTokens(_ text: String) -> [String]? {
        var result: [String] = []
        var current: [UInt8] = []
        func flush() {
            if !current.isEmpty { result.append(String(decoding: current.prefix(maxTermLength), as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
        }
        for var byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            if byte >= 0x41, byte <= 0x5A { byte += 0x20 }
            if (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) { current.append(byte) } else { flush() }
        }
        flush()
        return result
    }
}
