/// What a token is, as far as matching cares.
public enum TokenKind: UInt8, Hashable, Sendable {
    /// A name: a variable, a type, a member, a function.
    case identifier
    /// A reserved word of the language (`var`, `struct`, `def`, `const`).
    case keyword
    /// `@Name`: a Swift attribute or property wrapper, a Python or TypeScript decorator.
    case attribute
    /// `#name`: a Swift macro or compiler directive (`#Preview`, `#if`, `#available`).
    case directive
    case string
    case number
    /// An operator or punctuation (`(`, `.`, `->`, `??`).
    case symbol
}

/// A token of source code: its kind, its bytes in the source and its 1-based line.
public struct Token: Hashable, Sendable {
    public var kind: TokenKind
    /// Byte offsets into the UTF-8 source.
    public var start: Int
    public var end: Int
    /// The 1-based line the token starts on.
    public var line: Int
}
