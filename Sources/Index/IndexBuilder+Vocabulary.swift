extension IndexBuilder {
    /// The columns whose words make the vocabulary of typo tolerance (`words_vocab`).
    private static let textColumns = "title, breadcrumb, keywords, text, code"
    /// The same columns read from `entries`, where long ones are stored compressed.
    private static let storedColumns = "title, breadcrumb, keywords, inflate(text), inflate(code)"

    /// Readies this build's record of the entries' text added and removed: two temporary FTS5
    /// tables of the vocabulary's tokenizer (contentless, no positions), so that `words_vocab`
    /// is changed by their term counts at the end instead of being recounted.
    func beginVocabulary() throws {
        for table in ["vocab_added", "vocab_removed"] {
            try db.execute(
                """
                CREATE VIRTUAL TABLE IF NOT EXISTS temp.\(table) USING fts5(
                    \(Self.textColumns), content='', detail=none, tokenize='unicode61 remove_diacritics 2');
                CREATE VIRTUAL TABLE IF NOT EXISTS temp.\(table)_row USING fts5vocab(temp, \(table), row);
                INSERT INTO temp.\(table)(\(table)) VALUES ('delete-all');
                """)
        }
    }

    /// Deletes the entries matching `condition` (an SQL expression over `entries`), their words
    /// leaving the vocabulary.
    func deleteEntries(where condition: String, _ values: [SQLValue]) throws {
        try db.run(
            "INSERT INTO temp.vocab_removed(\(Self.textColumns)) SELECT \(Self.storedColumns) FROM entries WHERE \(condition)",
            values)
        try db.run("DELETE FROM entries WHERE \(condition)", values)
    }

    /// Adds the words of one entry's columns (in ``textColumns`` order) to the vocabulary.
    func addToVocabulary(_ columns: [SQLValue]) throws {
        try db.run("INSERT INTO temp.vocab_added(\(Self.textColumns)) VALUES (?, ?, ?, ?, ?)", columns)
    }

    /// The statement that adds the words of every row of `table` (which has the columns of
    /// ``textColumns``) to the vocabulary.
    static func addToVocabulary(from table: String) -> String {
        "INSERT INTO temp.vocab_added(\(textColumns)) SELECT \(textColumns) FROM \(table)"
    }

    /// Applies the words added and removed to `words_vocab`: each term's count of entries.
    func commitVocabulary() throws {
        try db.execute(
            """
            INSERT INTO words_vocab(term, doc) SELECT term, doc FROM temp.vocab_added_row WHERE true
                ON CONFLICT(term) DO UPDATE SET doc = doc + excluded.doc;
            CREATE TEMP TABLE IF NOT EXISTS vocab_minus(term TEXT PRIMARY KEY, doc INTEGER NOT NULL) WITHOUT ROWID;
            DELETE FROM temp.vocab_minus;
            INSERT INTO temp.vocab_minus(term, doc) SELECT term, doc FROM temp.vocab_removed_row;
            UPDATE words_vocab SET doc = doc - (SELECT m.doc FROM temp.vocab_minus m WHERE m.term = words_vocab.term)
                WHERE term IN (SELECT term FROM temp.vocab_minus);
            DELETE FROM words_vocab WHERE term IN (SELECT term FROM temp.vocab_minus) AND doc <= 0;
            INSERT INTO temp.vocab_added(vocab_added) VALUES ('delete-all');
            INSERT INTO temp.vocab_removed(vocab_removed) VALUES ('delete-all');
            """)
    }
}
