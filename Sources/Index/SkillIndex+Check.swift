import Foundation
import SkillCheck
import SkillParser

extension SkillIndex {
    /// The checker of this index's anti-patterns and checklists (`skill check`, the server's
    /// `review`). Built from the index on first use and kept until the skills change, so
    /// repeated reviews pay only for matching. Does not refresh: call
    /// ``refresh(full:progress:)`` first when the skills may have changed.
    public func checker() throws -> Checker {
        try locked {
            let db = try database()
            return try db.read {
                let stamp =
                    try db.query("SELECT count(*), total(mtime), total(size) FROM documents") {
                        "\($0.int(0))|\($0.double(1))|\($0.double(2))|\(configuration.indexURL.path)"
                    }.first ?? ""
                if let cached = checkerCache.value(for: stamp) { return cached }
                let checker = Checker(signatures: SignatureSet(try codes(db)), checklists: try checklists(db))
                checkerCache.store(checker, for: stamp)
                return checker
            }
        }
    }

    private func codes(_ db: Database) throws -> [IndexedCode] {
        try db.query(
            """
            SELECT e.id, e.title, e.skill, d.path, e.line, e.end_line, s.role, s.language, s.words, s.why, s.fix, s.fix_words, s.fix_code
            FROM signatures s JOIN entries e ON e.rowid = s.entry JOIN documents d ON d.id = e.doc ORDER BY e.id, s.rowid
            """
        ) { row -> IndexedCode? in
            guard let role = CodeRecord.Role(rawValue: row.text(6)), let language = SourceLanguage(rawValue: row.text(7)) else {
                return nil
            }
            let record = CodeRecord(
                role: role, sketch: CodeSketch(stored: row.text(8), language: language), why: row.text(9),
                fix: row.isNull(10) ? nil : row.text(10),
                fixSketch: row.isNull(11) ? nil : CodeSketch(stored: row.text(11), language: language), fixCode: row.text(12))
            return IndexedCode(
                id: row.text(0), title: row.text(1), skill: row.text(2),
                source: SourceSpan(path: row.text(3), line: Int(row.int(4)), endLine: Int(row.int(5))), record: record)
        }.compactMap { $0 }
    }

    private func checklists(_ db: Database) throws -> [IndexedChecklist] {
        let decoder = JSONDecoder()
        return try db.query(
            """
            SELECT e.id, e.title, e.skill, d.path, e.line, e.end_line, e.keywords, c.items
            FROM checklists c JOIN entries e ON e.rowid = c.entry JOIN documents d ON d.id = e.doc ORDER BY e.id
            """
        ) { row -> IndexedChecklist? in
            guard let items = try? decoder.decode([ChecklistItem].self, from: Data(row.text(7).utf8)) else { return nil }
            return IndexedChecklist(
                id: row.text(0), title: row.text(1), skill: row.text(2),
                source: SourceSpan(path: row.text(3), line: Int(row.int(4)), endLine: Int(row.int(5))),
                keywords: row.text(6).split(separator: " ").map(String.init), items: items)
        }.compactMap { $0 }
    }
}

/// The last checker built, with the stamp of the index it was built from.
final class CheckerCache: Sendable {
    private let state = Locked((stamp: "", checker: Checker?.none))

    func value(for stamp: String) -> Checker? {
        state.withLock { stamp == $0.stamp ? $0.checker : nil }
    }

    func store(_ checker: Checker, for stamp: String) {
        state.withLock { $0 = (stamp, checker) }
    }
}
