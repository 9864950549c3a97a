/// The index's tables. Raise ``version`` whenever they change: an index of another version is
/// rebuilt from scratch.
enum Schema {
    static let version = 16

    /// The tokenizer of the ranked full-text table: Porter stems over Unicode words.
    static let tokenizer = "porter unicode61 remove_diacritics 2"

    static let create = """
        PRAGMA page_size = 8192;
        -- A new index's FTS5 `optimize` frees the segments it merged: `incremental_vacuum` returns them.
        PRAGMA auto_vacuum = INCREMENTAL;
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        -- One row per skill folder found, shadowed ones included (name NULL) so their files are watched.
        CREATE TABLE skills(
            folder TEXT PRIMARY KEY,
            root_index INTEGER NOT NULL,
            root TEXT NOT NULL,
            path TEXT NOT NULL,
            own_name TEXT NOT NULL,
            name TEXT UNIQUE,
            description TEXT NOT NULL
        );
        -- Every markdown document of every skill: what the incremental build compares. Entries refer to
        -- their document by `id`, so each path is stored once.
        CREATE TABLE documents(
            id INTEGER PRIMARY KEY,
            file TEXT NOT NULL UNIQUE,
            folder TEXT NOT NULL,
            path TEXT NOT NULL,
            size INTEGER NOT NULL,
            mtime INTEGER NOT NULL,
            hash TEXT NOT NULL,
            diagnostics TEXT NOT NULL
        );
        CREATE INDEX documents_folder ON documents(folder);
        CREATE INDEX documents_hash ON documents(hash);
        -- Every folder walked, with its mtime: a new or deleted file changes its folder's mtime.
        CREATE TABLE dirs(path TEXT PRIMARY KEY, mtime INTEGER NOT NULL);
        CREATE TABLE entries(
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL,
            -- The id's 64-bit FNV-1a (`FNV1a.key`): its unique index is a sixth of one on the id's
            -- text (0.17 MB against 1.1 MB on the shared corpus). Look an id up by both.
            key INTEGER NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            role TEXT NOT NULL,
            -- FNV-1a of the kind and the markdown: equal for the same entry in two copies of a skill.
            hash TEXT NOT NULL,
            skill TEXT NOT NULL,
            doc INTEGER NOT NULL,
            line INTEGER NOT NULL,
            end_line INTEGER NOT NULL,
            crumbs TEXT NOT NULL,
            langs TEXT NOT NULL,
            title TEXT NOT NULL,
            breadcrumb TEXT NOT NULL,
            keywords TEXT NOT NULL,
            text TEXT NOT NULL,
            code TEXT NOT NULL
        );
        CREATE INDEX entries_doc ON entries(doc);
        CREATE INDEX entries_skill ON entries(skill);
        -- Each skill's own entry (kind 'skill', one row per skill): soft search joins every candidate
        -- to it. Through `entries_skill` alone the join read every entry of the candidate's skill.
        CREATE INDEX entries_skill_entry ON entries(skill) WHERE kind = 'skill';
        -- Ranked search: BM25 over stemmed words, weighted per column at query time. No prefix indexes:
        -- they tripled the table for `word*` queries that read the term range of the main index instead.
        -- `text` and `code` of 64 bytes or more are stored compressed when that shortens them
        -- (`Deflate`). A new index is filled from the text in hand (IndexBuilder+FullText); the
        -- triggers below (an incremental build), FTS5 itself (to check itself), the vocabulary's
        -- deletions and the snippets read it through `inflate()`.
        CREATE VIEW entries_text(rowid, title, breadcrumb, keywords, text, code) AS
            SELECT rowid, title, breadcrumb, keywords, inflate(text), inflate(code) FROM entries;
        CREATE VIRTUAL TABLE fts USING fts5(
            title, breadcrumb, keywords, text, code,
            content='entries_text', content_rowid='rowid',
            tokenize='\(tokenizer)'
        );
        -- The unstemmed words of the entries (the `unicode61` tokens of all five columns) and how many
        -- entries hold each: the vocabulary of typo tolerance, kept by the build (IndexBuilder+Vocabulary).
        CREATE TABLE words_vocab(term TEXT PRIMARY KEY, doc INTEGER NOT NULL) WITHOUT ROWID;
        -- `skill check` (docs/check.md): the code of every example ('code') and every ❌ block of an
        -- anti-pattern ('mistake', with its ✅ fix) as sketched words; the matcher weighs them at load.
        CREATE TABLE signatures(
            entry INTEGER NOT NULL,
            role TEXT NOT NULL,
            language TEXT NOT NULL,
            words TEXT NOT NULL,
            why TEXT NOT NULL,
            fix TEXT,
            fix_words TEXT,
            fix_code TEXT NOT NULL
        );
        CREATE INDEX signatures_entry ON signatures(entry);
        -- The items of a checklist that `skill check` matches (one with keywords): JSON, read at load.
        CREATE TABLE checklists(entry INTEGER PRIMARY KEY, items TEXT NOT NULL);
        -- Every file of every indexed skill with its SHA-256 and size, and its frontmatter as JSON: one
        -- `SkillManifest` (JSON) per skill folder, for the MCP Skills extension (SkillManifests.swift).
        CREATE TABLE manifests(folder TEXT PRIMARY KEY, manifest TEXT NOT NULL);
        CREATE TRIGGER entries_delete_details AFTER DELETE ON entries BEGIN
            DELETE FROM signatures WHERE entry = old.rowid;
            DELETE FROM checklists WHERE entry = old.rowid;
        END;
        """

    /// What keeps `fts` in step with `entries`, created after a new index's first fill (which
    /// fills `fts` once, from the text in hand: IndexBuilder+FullText).
    static let triggers = """
        CREATE TRIGGER IF NOT EXISTS entries_insert AFTER INSERT ON entries BEGIN
            INSERT INTO fts(rowid, title, breadcrumb, keywords, text, code)
                VALUES (new.rowid, new.title, new.breadcrumb, new.keywords, inflate(new.text), inflate(new.code));
        END;
        CREATE TRIGGER IF NOT EXISTS entries_delete AFTER DELETE ON entries BEGIN
            INSERT INTO fts(fts, rowid, title, breadcrumb, keywords, text, code)
                VALUES ('delete', old.rowid, old.title, old.breadcrumb, old.keywords, inflate(old.text), inflate(old.code));
        END;
        """
}
