/// Splits source code into tokens, dropping whitespace and comments: one pass over the UTF-8
/// bytes, linear in the input, for Swift, Python and TypeScript (and JavaScript).
///
/// Strings (Swift's multi-line `"""` and raw `#"…"#` with interpolation, Python's triple quotes
/// and prefixes, TypeScript's templates) become one ``TokenKind/string`` token each, so a `//`
/// or a keyword inside a string never counts as code. Unterminated strings and comments end at
/// the end of the line (single-line strings) or of the input; nothing here fails.
public struct Lexer {
    private let bytes: [UInt8]
    private let syntax: LexicalSyntax
    private var i = 0
    private var line = 1
    private var tokens: [Token] = []
    /// Strings inside interpolations inside strings: past ``maximumNesting`` an inner quote is
    /// read as a character, so hostile input cannot exhaust the stack.
    private var nesting = 0
    static let maximumNesting = 32

    /// The tokens of `source`, in order.
    public static func tokens(_ source: String, language: SourceLanguage) -> [Token] {
        var lexer = Lexer(bytes: Array(source.utf8), syntax: language.syntax)
        lexer.run()
        return lexer.tokens
    }

    /// The text of `token` in `source` (the same bytes the lexer was given).
    public static func text(of token: Token, in bytes: [UInt8]) -> String {
        String(decoding: bytes[token.start..<token.end], as: UTF8.self)
    }

    private init(bytes: [UInt8], syntax: LexicalSyntax) {
        self.bytes = bytes
        self.syntax = syntax
    }

    private func at(_ offset: Int) -> UInt8 {
        i + offset < bytes.count ? bytes[i + offset] : 0
    }

    private static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c == 0x24 || c >= 0x80
    }

    private static func isIdentifierByte(_ c: UInt8) -> Bool {
        isIdentifierStart(c) || (c >= 0x30 && c <= 0x39)
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    private static let operatorBytes = Set("=-+!*%<>&|^~?/".utf8)

    private mutating func emit(_ kind: TokenKind, from start: Int, line startLine: Int) {
        tokens.append(Token(kind: kind, start: start, end: i, line: startLine))
    }

    private mutating func run() {
        while i < bytes.count {
            let c = bytes[i]
            let start = i
            let startLine = line
            switch c {
            case 0x0A:
                line += 1
                i += 1
            case 0x20, 0x09, 0x0D, 0x0B, 0x0C:
                i += 1
            case UInt8(ascii: "#") where syntax.hashComment:
                skipLine()
            case UInt8(ascii: "/") where !syntax.hashComment && at(1) == UInt8(ascii: "/"):
                skipLine()
            case UInt8(ascii: "/") where syntax.blockComments && at(1) == UInt8(ascii: "*"):
                skipBlockComment()
            case UInt8(ascii: "#") where syntax.swiftStrings:
                var hashes = 0
                while at(hashes) == UInt8(ascii: "#") { hashes += 1 }
                if at(hashes) == UInt8(ascii: "\"") {
                    i += hashes
                    scanSwiftString(hashes: hashes)
                    emit(.string, from: start, line: startLine)
                } else if Self.isIdentifierStart(at(1)) {
                    i += 1
                    while i < bytes.count, Self.isIdentifierByte(bytes[i]) { i += 1 }
                    emit(.directive, from: start, line: startLine)
                } else {
                    i += 1
                    emit(.symbol, from: start, line: startLine)
                }
            case UInt8(ascii: "\""):
                if syntax.swiftStrings { scanSwiftString(hashes: 0) } else { scanQuoted(quote: c) }
                emit(.string, from: start, line: startLine)
            case UInt8(ascii: "'") where syntax.singleQuotes:
                scanQuoted(quote: c)
                emit(.string, from: start, line: startLine)
            case UInt8(ascii: "`") where syntax.backticks:
                scanTemplate()
                emit(.string, from: start, line: startLine)
            case UInt8(ascii: "`"):
                // Swift's `default`: a name spelled like a keyword.
                i += 1
                while i < bytes.count, bytes[i] != UInt8(ascii: "`"), bytes[i] != 0x0A { i += 1 }
                if at(0) == UInt8(ascii: "`") { i += 1 }
                emit(.identifier, from: start, line: startLine)
            case UInt8(ascii: "@") where Self.isIdentifierStart(at(1)):
                i += 1
                while i < bytes.count,
                    Self.isIdentifierByte(bytes[i])
                        || bytes[i] == UInt8(ascii: ".") && Self.isIdentifierStart(at(1)) && !syntax.swiftStrings
                {
                    i += 1
                }
                emit(.attribute, from: start, line: startLine)
            case _ where Self.isDigit(c):
                i += 1
                while i < bytes.count, Self.isIdentifierByte(bytes[i]) || bytes[i] == UInt8(ascii: ".") && Self.isDigit(at(1)) {
                    i += 1
                }
                emit(.number, from: start, line: startLine)
            case _ where Self.isIdentifierStart(c):
                i += 1
                while i < bytes.count, Self.isIdentifierByte(bytes[i]) { i += 1 }
                if syntax.stringPrefixes, i - start <= 2, at(0) == UInt8(ascii: "\"") || at(0) == UInt8(ascii: "'"),
                    bytes[start..<i].allSatisfy({ "rRbBfFuU".utf8.contains($0) })
                {
                    scanQuoted(quote: bytes[i])
                    emit(.string, from: start, line: startLine)
                } else {
                    let word = String(decoding: bytes[start..<i], as: UTF8.self)
                    emit(syntax.keywords.contains(word) ? .keyword : .identifier, from: start, line: startLine)
                }
            case UInt8(ascii: "."):
                i += 1
                while at(0) == UInt8(ascii: ".") || at(0) == UInt8(ascii: "<") && i - start < 3 { i += 1 }
                emit(.symbol, from: start, line: startLine)
            case _ where Self.operatorBytes.contains(c):
                i += 1
                while i < bytes.count, Self.operatorBytes.contains(bytes[i]),
                    !(bytes[i] == UInt8(ascii: "/") && (at(1) == UInt8(ascii: "/") || at(1) == UInt8(ascii: "*")))
                {
                    i += 1
                }
                emit(.symbol, from: start, line: startLine)
            default:
                i += 1
                emit(.symbol, from: start, line: startLine)
            }
        }
    }

    private mutating func skipLine() {
        while i < bytes.count, bytes[i] != 0x0A { i += 1 }
    }

    private mutating func skipBlockComment() {
        var depth = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*"), depth == 0 || syntax.nestedBlockComments {
                depth += 1
                i += 2
            } else if bytes[i] == UInt8(ascii: "*"), at(1) == UInt8(ascii: "/") {
                depth -= 1
                i += 2
                if depth == 0 { return }
            } else {
                if bytes[i] == 0x0A { line += 1 }
                i += 1
            }
        }
    }

    /// A Swift string from its opening quote (after any `#`s): `"…"`, `"""…"""`, with `\(…)`
    /// interpolation (`\#(…)` in a raw string), up to the closing quote and as many `#`s.
    private mutating func scanSwiftString(hashes: Int) {
        let multiline = at(1) == UInt8(ascii: "\"") && at(2) == UInt8(ascii: "\"")
        i += multiline ? 3 : 1
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x0A {
                if !multiline { return }
                line += 1
                i += 1
            } else if c == UInt8(ascii: "\\"), (0..<hashes).allSatisfy({ at(1 + $0) == UInt8(ascii: "#") }) {
                i += 1 + hashes
                if at(0) == UInt8(ascii: "(") {
                    scanInterpolation(open: UInt8(ascii: "("), close: UInt8(ascii: ")"))
                } else if i < bytes.count, bytes[i] != 0x0A {
                    i += 1
                }
            } else if c == UInt8(ascii: "\""), !multiline || (at(1) == UInt8(ascii: "\"") && at(2) == UInt8(ascii: "\"")),
                (0..<hashes).allSatisfy({ at((multiline ? 3 : 1) + $0) == UInt8(ascii: "#") })
            {
                i += (multiline ? 3 : 1) + hashes
                return
            } else {
                i += 1
            }
        }
    }

    /// An interpolated expression from its opening bracket to the matching close; strings
    /// inside it are scanned as strings.
    private mutating func scanInterpolation(open: UInt8, close: UInt8) {
        var depth = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == open {
                depth += 1
                i += 1
            } else if c == close {
                depth -= 1
                i += 1
                if depth == 0 { return }
            } else if c == UInt8(ascii: "\""), nesting < Self.maximumNesting {
                nesting += 1
                if syntax.swiftStrings { scanSwiftString(hashes: 0) } else { scanQuoted(quote: c) }
                nesting -= 1
            } else if c == UInt8(ascii: "'"), syntax.singleQuotes {
                scanQuoted(quote: c)
            } else if c == 0x0A {
                // An interpolation never spans lines in a single-line string: give up on it.
                if syntax.swiftStrings { return }
                line += 1
                i += 1
            } else {
                i += 1
            }
        }
    }

    /// A Python or TypeScript string from its opening quote (a Python prefix already passed):
    /// `'…'`, `"…"`, or Python's `'''…'''`/`"""…"""`.
    private mutating func scanQuoted(quote: UInt8) {
        let triple = syntax.stringPrefixes && at(1) == quote && at(2) == quote
        i += triple ? 3 : 1
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\\") {
                i += 2
                if at(-1) == 0x0A { line += 1 }
            } else if c == quote, !triple || (at(1) == quote && at(2) == quote) {
                i += triple ? 3 : 1
                return
            } else if c == 0x0A {
                if !triple { return }
                line += 1
                i += 1
            } else {
                i += 1
            }
        }
    }

    /// A TypeScript template literal with its `${…}` expressions.
    private mutating func scanTemplate() {
        i += 1
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\\") {
                i += 2
                if at(-1) == 0x0A { line += 1 }
            } else if c == UInt8(ascii: "`") {
                i += 1
                return
            } else if c == UInt8(ascii: "$"), at(1) == UInt8(ascii: "{") {
                i += 1
                scanInterpolation(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"))
            } else {
                if c == 0x0A { line += 1 }
                i += 1
            }
        }
    }
}
