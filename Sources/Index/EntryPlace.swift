/// Where an entry stands in its document. An entry found inside a section without a heading of
/// its own (a ❌/✅ pair, a tree, a table, an example) has its section's id followed by
/// `~KIND-N` (DESIGN.md section 2); a skill indexed under a second name has `~N` in its first
/// component (`skill-creator~2/SKILL#…`), which is not such a suffix.
enum EntryPlace {
    /// The id of the section `id` stands for: `id` without its `~KIND-N` suffix.
    static func section(of id: String) -> Substring {
        let utf8 = id.utf8
        guard let tilde = utf8.lastIndex(of: UInt8(ascii: "~")) else { return id[...] }
        let suffix = utf8[utf8.index(after: tilde)...]
        let isPart = suffix.contains(UInt8(ascii: "-")) && !suffix.contains(UInt8(ascii: "/")) && !suffix.contains(UInt8(ascii: "#"))
        return isPart ? id[..<tilde] : id[...]
    }

    /// Whether `id` is part of a section rather than a section or a skill of its own.
    static func isPartOfSection(_ id: String) -> Bool {
        section(of: id).utf8.count != id.utf8.count
    }
}
