/// Code reduced to what matching compares: one word per token, comments gone, every string
/// `§S`, every number `§N`, and every name the code declares itself (a type, a variable, a
/// parameter) `§I` followed by the name (`§Imodel`), matched as plain `§I` so that a user's
/// `viewModel` and a skill's `model` read the same; the name is kept so that a name some skill
/// declares is never taken for framework vocabulary. Framework
/// vocabulary (attributes, macros, keywords, names used but not declared) stays literal;
/// ``SignatureSet`` later abstracts the used names that are not vocabulary either.
public struct CodeSketch: Hashable, Sendable {
    public static let string = "§S"
    public static let number = "§N"
    public static let name = "§I"

    public var language: SourceLanguage
    public var words: [String]
    /// The 1-based line of each word.
    public var lines: [Int]

    /// The sketch of `source`.
    public init(_ source: String, language: SourceLanguage) {
        let bytes = Array(source.utf8)
        let tokens = Lexer.tokens(source, language: language)
        let texts = tokens.map { Lexer.text(of: $0, in: bytes) }
        let declared = Self.declaredNames(tokens, texts, language.syntax)
        self.language = language
        lines = tokens.map(\.line)
        words = zip(tokens, texts).map { token, text in
            switch token.kind {
            case .string: return Self.string
            case .number: return Self.number
            case .identifier:
                // `$name` is the binding of a declared `name`.
                let bare = text.hasPrefix("$") ? String(text.dropFirst()) : text
                return declared.contains(bare) ? Self.name + text : text
            default: return text
            }
        }
    }

    /// A sketch as stored in the index: its words joined by spaces (no word holds one).
    public init(stored: String, language: SourceLanguage) {
        self.language = language
        words = stored.utf8.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
        lines = Array(repeating: 0, count: words.count)
    }

    /// The words joined by spaces, for the index.
    public var stored: String { words.joined(separator: " ") }

    /// Whether `word` is a name used but not declared (a candidate for framework vocabulary).
    static func isUsedName(_ word: String, _ syntax: LexicalSyntax) -> Bool {
        guard let first = word.utf8.first, !word.hasPrefix("§"),
            first >= 0x80 || first == UInt8(ascii: "_") || first == UInt8(ascii: "$") || (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A)
        else { return false }
        return !syntax.keywords.contains(word)
    }

    /// Names declared by the code itself: after a declaring keyword, function parameters,
    /// closure parameters (`{ a, b in`), loop variables and Python assignments at a line start.
    private static func declaredNames(_ tokens: [Token], _ texts: [String], _ syntax: LexicalSyntax) -> Set<String> {
        var declared = Set<String>()
        var parameterDepth = 0  // > 0 inside a function's parameter list
        var awaitingParameters = false
        var k = 0
        while k < tokens.count {
            let token = tokens[k]
            let text = texts[k]
            let previous = k > 0 ? texts[k - 1] : ""
            if token.kind == .keyword, ["func", "init", "subscript", "def", "function"].contains(text) {
                awaitingParameters = true
            }
            if token.kind == .symbol {
                if text == "(", awaitingParameters || parameterDepth > 0 {
                    parameterDepth += 1
                    awaitingParameters = false
                } else if text == ")", parameterDepth > 0 {
                    parameterDepth -= 1
                } else if text == "{" || text == ":" && syntax.hashComment && parameterDepth == 0 {
                    awaitingParameters = false
                }
            }
            if token.kind == .identifier {
                let afterKeyword = k > 0 && tokens[k - 1].kind == .keyword && (syntax.declarers.contains(previous) || previous == "for")
                let parameter =
                    parameterDepth == 1
                    && (["(", ",", "*", "**", "..."].contains(previous)
                        || (k > 0 && tokens[k - 1].kind == .identifier && declared.contains(previous)
                            && ["(", ","].contains(k > 1 ? texts[k - 2] : "")))
                let assignment =
                    syntax.hashComment && parameterDepth == 0 && (k == 0 || tokens[k - 1].line < token.line)
                    && k + 1 < tokens.count && texts[k + 1] == "="
                if afterKeyword || parameter || assignment || closureParameter(at: k, tokens, texts) {
                    declared.insert(text)
                }
            }
            k += 1
        }
        declared.remove("_")
        return declared
    }

    /// Whether the name at `k` is a closure parameter: `{ a, b in` or `{ (a, b) in` (Swift).
    private static func closureParameter(at k: Int, _ tokens: [Token], _ texts: [String]) -> Bool {
        var back = k - 1
        while back >= 0, tokens[back].kind == .identifier || [",", "("].contains(texts[back]) { back -= 1 }
        guard back >= 0, texts[back] == "{" else { return false }
        var ahead = k + 1
        while ahead < tokens.count, tokens[ahead].kind == .identifier || [",", ")"].contains(texts[ahead]) { ahead += 1 }
        return ahead < tokens.count && texts[ahead] == "in" && ahead - back < 12
    }
}
