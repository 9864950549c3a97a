/// The keywords of any code (attributes, macros, modifiers with their first label, type names),
/// as entries record them: what `skill check` compares with checklists' keywords.
public enum CodeKeywords {
    /// Every keyword of `code`, without duplicates, in order of first appearance.
    public static func of(_ code: String) -> [String] {
        var seen = Set<String>()
        return KeywordScanner.scan([code]).filter { seen.insert($0).inserted }
    }
}
