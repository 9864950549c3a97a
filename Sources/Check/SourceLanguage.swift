/// A programming language whose code `skill check` can read.
public enum SourceLanguage: String, Codable, Hashable, Sendable, CaseIterable {
    case swift, python, typescript

    /// The language of a fenced block's info word (`swift`, `py`, `tsx`…); `nil` for the others.
    public init?(fence: String) {
        switch fence.lowercased() {
        case "swift": self = .swift
        case "python", "py", "python3": self = .python
        case "typescript", "ts", "tsx", "javascript", "js", "jsx", "mjs": self = .typescript
        default: return nil
        }
    }

    /// The language of a file by its extension (`.swift`, `.py`, `.ts`, `.tsx`, `.js`…).
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = String(path[path.index(after: dot)...])
        guard ext != "md" else { return nil }
        self.init(fence: ext)
    }

    var syntax: LexicalSyntax {
        switch self {
        case .swift: return .swift
        case .python: return .python
        case .typescript: return .typescript
        }
    }
}
