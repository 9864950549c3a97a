/// Recognises sections written for skill selection and navigation rather than for the task
/// (``EntryRole/routing``): by their heading, by their shape (a list of links to other files), or by
/// their first words ("This skill provides: …").
enum Routing {
    /// Headings that are routing wherever they stand, as the heading's whole words.
    static let headings = Markers.phrases([
        "when to use this skill", "when should i use this skill",
        "related", "related skills", "related documents", "related files", "related resources", "see also",
        "references", "reference", "reference files", "module references", "references and examples",
        "resources", "additional resources", "further reading", "contents", "table of contents", "quick links",
        "available skills", "skill index", "cross-references", "cross references", "available modules",
    ])
    /// Heading beginnings that are routing wherever they stand.
    static let headingStarts = Markers.phrases([
        "when this skill", "when to activate", "when to invoke", "when to trigger", "use this skill",
        "trigger phrases", "triggers", "example requests", "example prompts", "example queries", "how to route",
        "when to load",
    ])
    /// Headings that introduce a whole skill: routing in its SKILL.md, content in a reference document.
    /// ("When to use" in a reference document is about its API, not the skill.)
    static let skillFileHeadings = Markers.phrases([
        "when to use", "when to use it", "when to use this", "overview", "purpose", "introduction", "about",
        "about this skill", "your role", "core focus areas", "focus areas",
    ])

    /// The least number of linking items, and their least share, that make a section an index of files.
    static let minimumLinks = 3
    static let linkShare = 0.6

    /// Whether a heading's words make its section routing.
    static func isRouting(heading words: [Substring], inSkillFile: Bool) -> Bool {
        let whole = { (phrases: [[Substring]]) in phrases.contains { $0 == words } }
        return whole(headings) || Markers.starts(words, withAnyOf: headingStarts) || (inSkillFile && whole(skillFileHeadings))
    }

    /// Whether most list items (or, without a list, paragraphs) among `blocks` link to another
    /// file of the skill: an index of its documents, such as a "Quick Reference" of references.
    static func isLinkIndex(_ blocks: Range<Int>, in doc: DocumentContext) -> Bool {
        let items = blocks.filter { doc.blocks[$0].kind == .item }
        let units = items.isEmpty ? blocks.filter { doc.blocks[$0].kind == .paragraph } : items
        let linking = units.filter { unit in
            let links = doc.blocks[unit].kind == .item ? doc.itemLinks(unit) : doc.blocks[unit].links
            return links.contains(where: isFileLink)
        }.count
        return linking >= minimumLinks && Double(linking) >= linkShare * Double(units.count)
    }

    /// Whether the first top-level paragraph among `blocks` begins "This skill": a section that
    /// describes the skill to whoever chooses it ("Philosophy: This skill provides: …"), whatever
    /// its heading, holds the skill's topic words rather than an answer.
    static func describesTheSkill(_ blocks: Range<Int>, in doc: DocumentContext) -> Bool {
        guard let first = blocks.first(where: { doc.blocks[$0].depth == 0 && doc.blocks[$0].kind == .paragraph }) else { return false }
        let words = doc.blocks[first].text.prefix(16).split(whereSeparator: { !$0.isLetter }).prefix(2).map { $0.lowercased() }
        return words == ["this", "skill"]
    }

    /// A relative link to a file (`references/state.md`), not a web page or an anchor.
    private static func isFileLink(_ destination: String) -> Bool {
        !destination.isEmpty && !destination.hasPrefix("#") && !destination.contains("://") && !destination.hasPrefix("mailto:")
    }
}
