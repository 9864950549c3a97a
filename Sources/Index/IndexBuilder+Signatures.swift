import SkillCheck

extension IndexBuilder {
    /// Writes an entry's code records (`skill check`'s signatures) in the build's transaction;
    /// deleting the entry deletes them (a trigger).
    func insertSignatures(_ records: [CodeRecord], entry rowid: Int64) throws {
        for record in records {
            try db.run(
                "INSERT INTO signatures(entry, role, language, words, why, fix, fix_words, fix_code) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .int(rowid), .text(record.role.rawValue), .text(record.sketch.language.rawValue), .text(record.sketch.stored),
                    .text(record.why), record.fix.map { .text($0) } ?? .null, record.fixSketch.map { .text($0.stored) } ?? .null,
                    .text(record.fixCode),
                ])
        }
    }
}
