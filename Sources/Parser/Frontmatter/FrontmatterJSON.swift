import Foundation
import Yams

/// A SKILL.md's frontmatter rendered verbatim as a JSON object: every key the author wrote, in
/// file order, with YAML's own types (numbers, booleans, null, lists, maps), as a YAML loader
/// reads them. The MCP Skills extension (`io.modelcontextprotocol/skills`) sends this object in
/// every skill entry, and a host compares it field by field with its own load of the file.
///
/// The lenient ``Frontmatter`` model keeps every scalar a string (a description of `yes` stays
/// `"yes"`); this rendering is for hosts, which load YAML with its types.
public enum FrontmatterJSON {
    /// The most YAML nodes rendered: aliases can make a small block expand without bound.
    public static let nodeBudget = 10_000

    /// The frontmatter of a skill file as JSON text (a JSON object); `nil` when the file has no
    /// closed frontmatter, its YAML does not load, it is not a map, or it exceeds ``nodeBudget``.
    public static func render(_ file: Data) -> String? {
        guard let yaml = block(of: String(decoding: file, as: UTF8.self)),
            let node = try? Yams.compose(yaml: yaml), case .mapping = node
        else { return nil }
        var out = ""
        var budget = nodeBudget
        guard write(node, to: &out, budget: &budget) else { return nil }
        return out
    }

    /// The YAML between the opening `---` line and the closing `---` (or `...`) line.
    static func block(of text: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        guard let first = lines.first else { return nil }
        lines[0] = first.drop { $0 == "\u{FEFF}" }
        guard lines[0].trimmingCharacters(in: .whitespaces) == "---" else { return nil }
        guard
            let close = lines.indices.dropFirst().first(where: {
                let line = lines[$0].trimmingCharacters(in: .whitespaces)
                return line == "---" || line == "..."
            })
        else { return nil }
        return lines[1..<close].joined(separator: "\n")
    }

    private static func write(_ node: Node, to out: inout String, budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch node {
        case .mapping(let mapping):
            out += "{"
            for (offset, pair) in mapping.enumerated() {
                if offset > 0 { out += "," }
                string(pair.key.string ?? pair.key.scalar?.string ?? "", to: &out)
                out += ":"
                guard write(pair.value, to: &out, budget: &budget) else { return false }
            }
            out += "}"
        case .sequence(let sequence):
            out += "["
            for (offset, item) in sequence.enumerated() {
                if offset > 0 { out += "," }
                guard write(item, to: &out, budget: &budget) else { return false }
            }
            out += "]"
        case .scalar(let scalar):
            switch Tag.Name(rawValue: node.tag.rawValue) {
            case .null:
                out += "null"
            case .bool:
                if let value = node.bool { out += value ? "true" : "false" } else { string(scalar.string, to: &out) }
            case .int:
                if let value = node.int { out += String(value) } else { string(scalar.string, to: &out) }
            case .float:
                if let value = node.float, value.isFinite { out += "\(value)" } else { string(scalar.string, to: &out) }
            default:
                string(scalar.string, to: &out)
            }
        case .alias:
            return false
        }
        return true
    }

    /// A JSON string literal.
    static func string(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
