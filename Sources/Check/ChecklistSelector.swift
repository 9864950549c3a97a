import Foundation
import SkillParser

/// Picks the checklists that apply to some code: those whose keywords (`@State`, `.task(id:)`,
/// `NavigationStack`) the code uses, rarer shared keywords counting more.
public enum ChecklistSelector {
    /// At most `limit` checklists sharing a keyword with `source`, most relevant first.
    public static func relevant(_ checklists: [IndexedChecklist], to source: String, limit: Int = 3) -> [RelevantChecklist] {
        let used = Set(CodeKeywords.of(source))
        guard !used.isEmpty else { return [] }
        var frequency: [String: Int] = [:]
        for checklist in checklists { for word in Set(checklist.keywords) { frequency[word, default: 0] += 1 } }
        let total = Double(checklists.count + 1)
        let scored: [(Double, IndexedChecklist, [String])] = checklists.compactMap { checklist in
            let shared = checklist.keywords.filter(used.contains)
            guard !shared.isEmpty else { return nil }
            return (shared.map { log(total / Double(frequency[$0] ?? 1)) }.reduce(0, +), checklist, shared)
        }
        return scored.sorted { ($0.0, $1.1.id) > ($1.0, $0.1.id) }.prefix(limit).map { score, checklist, shared in
            RelevantChecklist(
                id: checklist.id, title: checklist.title, skill: checklist.skill, matched: shared,
                items: checklist.items, source: checklist.source)
        }
    }
}
