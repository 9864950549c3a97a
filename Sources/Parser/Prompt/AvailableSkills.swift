import Foundation

/// The `<available_skills>` block that agents put in their system prompt, in the format of the
/// reference tool's `to-prompt`: one element per line, values XML-escaped, the location the
/// SKILL.md's absolute path.
public enum AvailableSkills {
    /// The block for every skill that `paths` name, in order; skills without a usable name and
    /// description are left out and reported.
    /// - Throws: ``SkillError/notFound(_:)`` when a path does not exist.
    public static func render(paths: [String], diagnostics: inout [Diagnostic]) throws -> String {
        let targets = try SkillTargets.resolve(paths, diagnostics: &diagnostics)
        var lines = ["<available_skills>"]
        for target in targets {
            let skill = SkillLoader.load(folder: target.folder, root: target.folder)
            let name = (skill.frontmatter.name ?? "").trimming(" \t\n")
            let description = (skill.frontmatter.description ?? "").trimming(" \t\n")
            let file = SkillFinder.skillFile(in: target.folder)?.lastPathComponent ?? "SKILL.md"
            guard !name.isEmpty, !description.isEmpty else {
                diagnostics.append(Diagnostic(
                    .error, name.isEmpty ? .nameMissing : .descriptionMissing,
                    "left out of the prompt: the frontmatter needs a 'name' and a 'description'",
                    path: target.display(file), line: 1))
                continue
            }
            let location = target.folder.resolvingSymlinksInPath().appendingPathComponent(file).path
            lines += ["<skill>", "<name>", escape(name), "</name>", "<description>", escape(description), "</description>",
                      "<location>", location, "</location>", "</skill>"]
        }
        lines.append("</available_skills>")
        return lines.joined(separator: "\n")
    }

    /// Escapes `& < > " '` as Python's `html.escape` does.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#x27;"
            default: out.append(c)
            }
        }
        return out
    }
}
