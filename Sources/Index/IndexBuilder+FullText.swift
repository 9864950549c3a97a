extension IndexBuilder {
    /// A new index's entries as FTS5 reads them, kept in a temporary table while the build
    /// writes `entries` (whose long text is compressed, ``Deflate``): FTS5 and the vocabulary are
    /// filled once from it at the end (``fillFullText()``), faster than row by row and without
    /// inflating what was just compressed. (An index emptied by an earlier build still has its
    /// insert trigger: it goes until then, so no entry is indexed twice.)
    static let createFresh = """
        DROP TRIGGER IF EXISTS entries_insert;
        CREATE TEMP TABLE IF NOT EXISTS fresh(
            rowid INTEGER PRIMARY KEY, title TEXT, breadcrumb TEXT, keywords TEXT, text TEXT, code TEXT);
        DELETE FROM temp.fresh;
        """

    /// Keeps a new index's entry `rowid` with its searchable columns (title, breadcrumb,
    /// keywords, text, code) as they are, for ``fillFullText()``.
    func addFresh(_ rowid: Int64, _ columns: [SQLValue]) throws {
        try db.run(
            "INSERT INTO temp.fresh(rowid, title, breadcrumb, keywords, text, code) VALUES (?, ?, ?, ?, ?, ?)", [.int(rowid)] + columns)
    }

    /// Fills a new index's full-text table and vocabulary from the entries kept by
    /// ``addFresh(_:_:)``, then creates the triggers that keep `fts` in step from there on.
    func fillFullText() throws {
        try db.execute(
            """
            INSERT INTO fts(rowid, title, breadcrumb, keywords, text, code)
                SELECT rowid, title, breadcrumb, keywords, text, code FROM temp.fresh;
            \(Self.addToVocabulary(from: "temp.fresh"));
            DROP TABLE temp.fresh;
            """)
        try db.execute(Schema.triggers)
    }
}
