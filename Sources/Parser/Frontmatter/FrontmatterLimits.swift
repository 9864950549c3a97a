/// The budget frontmatter is read within: YAML aliases let a few hundred bytes stand for billions
/// of nodes ("billion laughs"), so nodes are counted as aliases are expanded and the work stops
/// at the limit. See docs/reliability.md.
public enum FrontmatterLimits {
    /// The most bytes of YAML read between the `---` lines.
    public static let maxBytes = 64 << 10
    /// The most nodes (scalars, lists, maps, each alias counted as what it stands for).
    public static let maxNodes = 10_000
    /// The deepest nesting of lists and maps kept; deeper values are dropped.
    public static let maxDepth = 32

    /// Whether the YAML may use an alias as a key (`? *a`, `*a: x`, `[*a]: x`). Composing such a
    /// key hashes the whole expanded node, so it is refused before composing. The check is
    /// lexical and errs on the side of refusing: only text that holds an alias at all is looked at.
    static func mayHaveAliasKey(_ yaml: String) -> Bool {
        let bytes = Array(yaml.utf8)
        guard bytes.contains(UInt8(ascii: "*")) else { return false }
        var sawAlias = false
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            let previous = i > 0 ? bytes[i - 1] : UInt8(ascii: "\n")
            let startsToken = [
                UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","),
                UInt8(ascii: "-"), UInt8(ascii: "?"),
            ].contains(previous)
            if byte == UInt8(ascii: "*"), startsToken {
                sawAlias = true
                var end = i + 1
                while end < bytes.count, !isSeparator(bytes[end]) { end += 1 }
                var next = end
                while next < bytes.count, bytes[next] == UInt8(ascii: " ") { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: ":") { return true }
                i = end
                continue
            }
            i += 1
        }
        guard sawAlias else { return false }
        // A complex key (`? …`) or a flow collection used as a key (`]: `, `}: `).
        for line in yaml.split(separator: "\n") {
            let content = line.drop { $0 == " " || $0 == "\t" || $0 == "-" }
            if content.hasPrefix("?") { return true }
        }
        return yaml.contains("]:") || yaml.contains("] :") || yaml.contains("}:") || yaml.contains("} :")
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        [
            UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"),
            UInt8(ascii: ":"),
        ].contains(byte)
    }
}
