import Foundation

/// The `<available_skills>` block that agents put in their system prompt, in the format of the
/// reference tool's `to-prompt`: one element per line, values XML-escaped, the location the
/// SKILL.md's absolute path.
public enum AvailableSkills {
    /// One skill as the prompt names it.
    public struct Skill: Codable, Hashable, Sendable {
        public var name: String
        public var description: String
        /// The SKILL.md's absolute path.
        public var location: String
    }

    /// The block for every skill that `paths` name, in order; skills without a usable name and
    /// description are left out and reported.
    /// - Throws: ``SkillError/notFound(_:)`` when a path does not exist.
    public static func render(paths: [String], diagnostics: inout [Diagnostic]) throws -> String {
        render(try list(paths: paths, diagnostics: &diagnostics))
    }

    /// The block for `skills`.
    public static func render(_ skills: [Skill]) -> String {
        var lines = ["<available_skills>"]
        for skill in skills {
            lines += [
                "<skill>", "<name>", escape(skill.name), "</name>", "<description>", escape(skill.description), "</description>",
                "<location>", skill.location, "</location>", "</skill>",
            ]
        }
        lines.append("</available_skills>")
        return lines.joined(separator: "\n")
    }

    /// The skills that `paths` name, in order; skills without a usable name and description are
    /// left out and reported.
    /// - Throws: ``SkillError/notFound(_:)`` when a path does not exist.
    public static func list(paths: [String], diagnostics: inout [Diagnostic]) throws -> [Skill] {
        let targets = try SkillTargets.resolve(paths, diagnostics: &diagnostics)
        var skills: [Skill] = []
        for target in targets {
            let skill = SkillLoader.load(folder: target.folder, root: target.folder)
            let name = (skill.frontmatter.name ?? "").trimming(" \t\n")
            let description = (skill.frontmatter.description ?? "").trimming(" \t\n")
            let file = SkillFinder.skillFile(in: target.folder)?.lastPathComponent ?? "SKILL.md"
            guard !name.isEmpty, !description.isEmpty else {
                diagnostics.append(
                    Diagnostic(
                        .error, name.isEmpty ? .nameMissing : .descriptionMissing,
                        "left out of the prompt: the frontmatter needs a 'name' and a 'description'",
                        path: target.display(file), line: 1))
                continue
            }
            let location = target.folder.resolvingSymlinksInPath().appendingPathComponent(file).path
            skills.append(Skill(name: name, description: description, location: location))
        }
        return skills
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
