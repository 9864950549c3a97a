/// The Agent Skills specification's rules for SKILL.md frontmatter fields.
public enum SpecRules {
    public static let nameLimit = 64
    public static let descriptionLimit = 1024
    public static let compatibilityLimit = 500
    /// The fields the specification defines.
    public static let fields: Set<String> = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"]

    /// Whether `name` is 1-64 of `a-z 0-9 -` without a leading, trailing or doubled hyphen.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= nameLimit
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
            && !name.hasPrefix("-") && !name.hasSuffix("-") && !name.contains("--")
    }

    /// Checks the specification's fields of a SKILL.md whose folder is named `folder`.
    static func check(_ frontmatter: Frontmatter, folder: String, path: String, diagnostics: inout [Diagnostic]) {
        guard let lines = frontmatter.lines else { return }
        let top = lines.lowerBound
        func report(_ id: RuleID, _ message: String, _ field: FrontmatterField?) {
            diagnostics.append(Diagnostic(.error, id, message, path: path, line: field?.line ?? top))
        }
        for field in frontmatter.fields where ["name", "description", "license", "compatibility", "allowed-tools"].contains(field.key) {
            if case .string = field.value { continue }
            // Claude Code and the reference validator accept a list of tools, as real skills write it.
            if field.key == "allowed-tools", case .list(let items) = field.value, items.allSatisfy({ $0.string != nil }) {
                let tools = items.compactMap(\.string).joined(separator: " ")
                diagnostics.append(
                    Diagnostic(
                        .warning, .allowedToolsList,
                        "'allowed-tools' is a YAML list; agents accept it, but the specification writes one space-separated string: 'allowed-tools: \(tools)'",
                        path: path, line: field.line))
                continue
            }
            if case .null = field.value, field.key != "name", field.key != "description" { continue }
            report(.fieldNotString, "'\(Echo.bounded(field.key))' must be a single string value", field)
        }
        let name = frontmatter.field("name")
        switch name?.value {
        case nil, .null?:
            report(.nameMissing, "'name' is missing; add 'name: \(folder)'", name)
        case .string(let value)?:
            if !isValidName(value) {
                report(
                    .nameInvalid,
                    "name '\(Echo.bounded(value))' must be 1-\(nameLimit) characters of a-z, 0-9 and '-', without a leading, trailing or doubled '-'",
                    name)
            } else if value != folder {
                report(
                    .nameMismatch,
                    "name '\(Echo.bounded(value))' differs from its folder '\(Echo.bounded(folder))'; rename one so they match", name)
            }
        default:
            break
        }
        let description = frontmatter.field("description")
        switch description?.value {
        case nil, .null?:
            report(.descriptionMissing, "'description' is missing; say what the skill does and when to use it", description)
        case .string(let value)?:
            if value.trimming(" \t\n").isEmpty {
                report(.descriptionMissing, "'description' is empty; say what the skill does and when to use it", description)
            } else if value.count > descriptionLimit {
                report(
                    .descriptionTooLong,
                    "description is \(value.count) characters, over the limit of \(descriptionLimit); shorten it and move detail into the body",
                    description)
            }
        default:
            break
        }
        if let field = frontmatter.field("compatibility"), let value = field.value.string, value.count > compatibilityLimit {
            report(.compatibilityTooLong, "compatibility is \(value.count) characters, over the limit of \(compatibilityLimit)", field)
        }
        if let field = frontmatter.field("metadata") {
            var isStringMap = false
            if case .map(let entries) = field.value {
                isStringMap = entries.allSatisfy { $0.value.string != nil }
            }
            if !isStringMap {
                report(
                    .metadataNotStrings,
                    "'metadata' must be a map of string keys to string values (quote numbers such as version: \"1.0\")", field)
            }
        }
    }
}
