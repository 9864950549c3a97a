/// What a heading's words say about its section, worked out once per heading.
struct HeadingWords {
    let isAntiPattern: Bool
    let isChecklist: Bool
    let isDecision: Bool
    let isPattern: Bool
    let isTable: Bool
    /// The heading names a routing section wherever it stands (``Routing/headings``).
    let isRouting: Bool
    /// The heading names a routing section in a SKILL.md ("Overview").
    let isSkillFileRouting: Bool
    /// ❌ or ✅ in the heading.
    let verdict: Verdict

    init(_ title: String) {
        let words = Markers.words(title)
        let bad = Markers.hasBadSign(title)
        let good = Markers.hasGoodSign(title)
        verdict = bad ? .bad : good ? .good : .neutral
        isAntiPattern = bad || Markers.has(words, anyOf: Markers.antiPatternWords) || words.first == "never"
        isChecklist = Markers.has(words, anyOf: Markers.checklistWords)
        isDecision = Markers.has(words, anyOf: Markers.decisionWords)
        isPattern = good || Markers.has(words, anyOf: Markers.patternWords) || ["do", "do's", "dos"].contains(words.first ?? "")
        isTable = Markers.has(words, anyOf: Markers.tableWords)
        isRouting = Routing.isRouting(heading: words, inSkillFile: false)
        isSkillFileRouting = isRouting || Routing.isRouting(heading: words, inSkillFile: true)
    }
}
