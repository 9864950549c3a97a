/// Recognises documents written about a skill for the people who maintain it rather than for the
/// task (``EntryRole/about``): at the skill's top level, the repository files named in capitals by
/// convention (`README.md`, `SPEC.md`, `EVAL.md`, `SOURCES.md`, `CHANGELOG.md`, …), and whatever
/// stands in its top-level `evals/` or `evaluations/` folder. The agent reads SKILL.md and its
/// references; these describe, specify or test the skill for people.
///
/// Only those places: a reference document named for its subject (`reference/evaluation.md` of
/// a skill on writing evaluations, `FORMS.md`) is content.
enum AboutDocuments {
    /// Top-level document names (without `.md`, in capitals) that are about the skill.
    static let names: Set<String> = [
        "README", "SPEC", "SPECIFICATION", "EVAL", "EVALS", "EVALUATION", "SOURCES", "CHANGELOG", "CONTRIBUTING",
        "LICENSE", "LICENCE",
    ]
    /// Top-level folders whose documents are about the skill (its evaluation cases).
    static let folders: Set<String> = ["evals", "evaluations"]

    /// Whether the document `key` (its path inside the skill without `.md`: `SPEC`,
    /// `evaluations/README`) is about the skill.
    static func contains(_ key: String) -> Bool {
        let parts = key.split(separator: "/")
        switch parts.count {
        case 1: return names.contains(String(parts[0]))
        default: return folders.contains(parts[0].lowercased())
        }
    }
}
