/// What a lexer needs to know about one language: its comments, its strings, its reserved words
/// and the words that declare a name.
struct LexicalSyntax: Sendable {
    /// `//` (Swift, TypeScript) or `#` (Python).
    var hashComment: Bool
    /// Swift's `/* */` comments nest; TypeScript's do not; Python has none.
    var blockComments: Bool
    var nestedBlockComments: Bool
    /// Python's `'''`/`"""` and `r"…"`/`f"…"` prefixes; TypeScript's `'…'` and `` `…` ``;
    /// Swift's `"""` and raw `#"…"#`.
    var singleQuotes: Bool
    var backticks: Bool
    var stringPrefixes: Bool
    var swiftStrings: Bool
    var keywords: Set<String>
    /// A name right after one of these is declared by the code itself (and so its own, not the
    /// framework's).
    var declarers: Set<String>

    static let swift = LexicalSyntax(
        hashComment: false, blockComments: true, nestedBlockComments: true,
        singleQuotes: false, backticks: false, stringPrefixes: false, swiftStrings: true,
        keywords: [
            "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
            "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
            "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
            "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
            "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
            "super", "throws", "true", "try", "async", "some", "any", "actor", "nonisolated", "mutating",
            "override", "final", "lazy", "weak", "unowned", "convenience", "required", "get", "set", "willSet",
            "didSet", "consuming", "borrowing", "sending", "package", "macro",
        ],
        declarers: ["struct", "class", "enum", "protocol", "actor", "func", "var", "let", "typealias", "associatedtype", "case"])

    static let python = LexicalSyntax(
        hashComment: true, blockComments: false, nestedBlockComments: false,
        singleQuotes: true, backticks: false, stringPrefixes: true, swiftStrings: false,
        keywords: [
            "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
            "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
            "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "self",
        ],
        declarers: ["def", "class", "as", "global", "nonlocal"])

    static let typescript = LexicalSyntax(
        hashComment: false, blockComments: true, nestedBlockComments: false,
        singleQuotes: true, backticks: true, stringPrefixes: false, swiftStrings: false,
        keywords: [
            "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
            "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new",
            "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while",
            "with", "as", "implements", "interface", "let", "private", "protected", "public", "static", "yield",
            "async", "await", "type", "from", "of", "readonly", "undefined", "enum", "abstract", "declare",
        ],
        declarers: ["function", "class", "interface", "type", "enum", "const", "let", "var"])
}
