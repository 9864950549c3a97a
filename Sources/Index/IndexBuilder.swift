import Foundation
import SkillCheck
import SkillParser

/// Writes the index: compares what is on disk with what the index recorded and re-parses only
/// what changed, all inside one transaction.
struct IndexBuilder {
    let db: Database
    /// The build's zlib stream for the entries' long text (``Deflate``).
    let compressor = Deflate.Compressor()
    let roots: [URL]
    /// Stop (throw ``IndexError/interrupted``) after parsing this many documents: a test hook
    /// standing for a crash in the middle of a build.
    var stopAfterDocuments: Int?
    var progress: ((BuildProgress) -> Void)?
    /// Read and hash every document, whatever its stamp says (`skill build --verify`).
    var verify = false
    /// Test hook: called with a document's path just before it is read.
    var willRead: ((String) -> Void)?
    /// Test hook: called with a skill's folder just before it is parsed whole (walked and read).
    var willParse: ((String) -> Void)?
    /// The time the build records as its start (nanoseconds since 1970; a test passes its own).
    var clock: () -> Int64 = Freshness.now

    private struct StoredSkill {
        var rootIndex: Int
        var path: String
        var ownName: String
        var name: String?
    }

    private struct StoredDocument {
        var folder: String
        var path: String
        var size: Int64
        var mtime: Int64
        var hash: String
    }

    /// A document that needs parsing, with its bytes already read.
    private struct Changed {
        var document: ScannedDocument
        var data: Data
        var hash: String
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        // Sorted keys: the same diagnostics are the same text, so two builds of the same skills
        // write the same index.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    // MARK: Build

    /// Brings the index up to date with the roots; call inside a transaction.
    /// - Parameter walk: walk the roots even when no folder changed (a new index, or asked).
    func update(walk forceWalk: Bool) throws -> BuildReport {
        let started = clock()
        // Full only when the caller wrote a new index (it says so); a verifying walk is not.
        var report = BuildReport(full: false)
        let storedSkills = Dictionary(
            uniqueKeysWithValues: try db.query(
                "SELECT folder, root_index, path, own_name, name FROM skills"
            ) {
                (
                    $0.text(0),
                    StoredSkill(rootIndex: Int($0.int(1)), path: $0.text(2), ownName: $0.text(3), name: $0.isNull(4) ? nil : $0.text(4))
                )
            })
        let storedDocuments = Dictionary(
            uniqueKeysWithValues: try db.query(
                "SELECT file, folder, path, size, mtime, hash FROM documents"
            ) {
                ($0.text(0), StoredDocument(folder: $0.text(1), path: $0.text(2), size: $0.int(3), mtime: $0.int(4), hash: $0.text(5)))
            })
        let storedDirs = try db.query("SELECT path, mtime FROM dirs") { ($0.text(0), $0.int(1)) }
        let storedFilesByFolder = Dictionary(grouping: storedDocuments.keys, by: { storedDocuments[$0]!.folder })

        // Folders unchanged means no file was added or removed: restat the recorded documents
        // instead of walking every root.
        let foldersChanged = forceWalk || storedDirs.isEmpty || storedDirs.contains { FileStamp.of($0.0)?.mtime != $0.1 }
        var scan = foldersChanged ? Scanner.scan(roots: roots) : restat(storedSkills, storedDocuments)
        if scan.skills.contains(where: { $0.documents.isEmpty }) { scan = Scanner.scan(roots: roots) }

        // Which documents changed: size and mtime first, then the content hash. A new skill, or
        // one whose SKILL.md changed, is parsed whole (its name and frontmatter apply to every
        // document) by the parsing threads, which read and hash its documents themselves.
        var changed: [String: [Changed]] = [:]
        var touched: [ScannedDocument] = []
        var unread: [String: (document: ScannedDocument, folder: String)] = [:]
        var toLoad: [ScannedSkill] = []
        for skill in scan.skills {
            guard storedSkills[skill.folder] != nil else {
                toLoad.append(skill)
                continue
            }
            for document in skill.documents {
                let stored = storedDocuments[document.file]
                if !verify, let stored, stored.folder == skill.folder, stored.size == document.stamp.size,
                    stored.mtime == document.stamp.mtime
                {
                    continue
                }
                guard let data = read(document.file) else {
                    // Not read, so not stamped: the next build looks again (entries kept meanwhile).
                    unread[document.file] = (document, skill.folder)
                    continue
                }
                let hash = Scanner.hash(data)
                if let stored, stored.folder == skill.folder, stored.hash == hash {
                    touched.append(document)
                } else {
                    changed[skill.folder, default: []].append(Changed(document: document, data: data, hash: hash))
                }
            }
            if changed[skill.folder]?.contains(where: { $0.document.file == skill.documents[0].file }) == true { toLoad.append(skill) }
        }

        /// A document's content hash: from this build's comparison or parse, else read now;
        /// `nil` when it cannot be read.
        func hash(of document: ScannedDocument, in folder: String, parsed: ParsedSkill?) -> String? {
            // A parsed skill's documents: the hash of the bytes parsed, none for one not read.
            if let parsed { return parsed.hashes[document.file] ?? nil }
            if let known = changed[folder]?.first(where: { $0.document.file == document.file })?.hash { return known }
            return read(document.file).map(Scanner.hash)
        }

        var parsedDocuments = 0
        // A new skill is both to load and changed: count it once.
        let loading = Set(toLoad.map(\.folder))
        let work = toLoad.count + changed.keys.filter { !loading.contains($0) }.count
        var done = 0
        func tick() throws {
            done += 1
            progress?(BuildProgress(skillsDone: done, skillsTotal: work))
        }
        func count(_ documents: Int) throws {
            parsedDocuments += documents
            if let limit = stopAfterDocuments, parsedDocuments >= limit { throw IndexError.interrupted }
        }

        // A Claude Code plugin's skills are named PLUGIN:SKILL, as Claude Code names them.
        let prefixes = roots.map { ClaudePlugin.owning(skillsFolder: $0).map { $0.name + ":" } ?? "" }
        func ownName(_ skill: ScannedSkill, _ parsed: Skill?) -> String {
            if let parsed { return prefixes[min(skill.rootIndex, prefixes.count - 1)] + parsed.name }
            return storedSkills[skill.folder]?.ownName
                ?? prefixes[min(skill.rootIndex, prefixes.count - 1)] + URL(fileURLWithPath: skill.folder).lastPathComponent
        }

        // Names: the first root wins; twice in one root, the later one is NAME~2. A skill's name
        // depends only on the skills before it, so each is named as it comes, and a full build and
        // an incremental one name alike.
        var duplicates: [Diagnostic] = []
        // Every name given in this build, with the folder it went to.
        var holders: [String: String] = [:]
        var firstRoot: [String: Int] = [:]
        var used: [String: Int] = [:]
        func assign(_ skill: ScannedSkill, _ own: String) -> String? {
            if let root = firstRoot[own], root != skill.rootIndex, let first = holders[own] {
                duplicates.append(
                    Diagnostic(
                        .warning, .duplicateSkill,
                        "skill '\(own)' is also in \(first), an earlier root, which wins; this one is not indexed",
                        path: skill.documents[0].path, line: 1))
                return nil
            }
            // A name taken in this root, or already given to a duplicate (a skill named `x~2`
            // after a second `x`): a numbered name after the ones given.
            guard let first = holders[own] else {
                firstRoot[own] = skill.rootIndex
                holders[own] = skill.folder
                return own
            }
            var n = (used[own] ?? 1) + 1
            while holders["\(own)~\(n)"] != nil { n += 1 }
            used[own] = n
            holders["\(own)~\(n)"] = skill.folder
            duplicates.append(
                Diagnostic(
                    .warning, .duplicateSkill,
                    "skill '\(own)' is also at \(first + "/SKILL.md"); this one is indexed as '\(own)~\(n)'; rename one of them",
                    path: skill.documents[0].path, line: 1))
            return "\(own)~\(n)"
        }

        try beginVocabulary()
        let wasEmpty = try db.scalar("SELECT count(*) FROM entries") == 0
        if wasEmpty { try db.execute(Self.createFresh) }

        // Skills gone from disk.
        let scanned = Set(scan.skills.map(\.folder))
        for (folder, stored) in storedSkills where !scanned.contains(folder) {
            if let name = stored.name {
                report.removed.append(SkillChange(name: name, path: stored.path, entries: try entryCount(folder)))
            }
            try deleteSkill(folder)
        }

        // Skills on disk, in order; each written as soon as it is parsed.
        let parser = ParseAhead(toLoad, willParse: willParse, willRead: willRead)
        defer { parser.stop() }
        var nextLoad = 0
        var written: [Diagnostic] = []
        for skill in scan.skills {
            var parsed: ParsedSkill?
            if nextLoad < toLoad.count, toLoad[nextLoad].folder == skill.folder {
                parsed = parser.take(nextLoad)
                nextLoad += 1
                try count(parsed!.skill.documents.count)
                try tick()
            }
            let stored = storedSkills[skill.folder]
            let own = ownName(skill, parsed?.skill)
            guard let name = assign(skill, own) else {
                // Shadowed by a skill of an earlier root: watched, not indexed.
                if stored?.name != nil {
                    report.removed.append(SkillChange(name: stored!.name!, path: skill.path, entries: try entryCount(skill.folder)))
                }
                try deleteSkill(skill.folder)
                try db.run(
                    "INSERT INTO skills(folder, root_index, root, path, own_name, name, description) VALUES (?, ?, ?, ?, ?, NULL, '')",
                    [.text(skill.folder), .int(Int64(skill.rootIndex)), .text(skill.root), .text(skill.path), .text(own)])
                // Their hashes find copies of an indexed document (a search result's `alsoAt`).
                for document in skill.documents {
                    _ = try upsertDocument(
                        document, folder: skill.folder, hash: hash(of: document, in: skill.folder, parsed: parsed) ?? "", diagnostics: [])
                }
                continue
            }
            if parsed == nil, stored?.name == name, stored?.rootIndex == skill.rootIndex {
                // Same skill, same name: re-parse only the documents that changed.
                let current = Set(skill.documents.map(\.file))
                let gone = (storedFilesByFolder[skill.folder] ?? []).filter { !current.contains($0) }
                for file in gone {
                    try deleteEntries(where: "doc = (SELECT id FROM documents WHERE file = ?)", [.text(file)])
                    try db.run("DELETE FROM documents WHERE file = ?", [.text(file)])
                }
                for item in changed[skill.folder] ?? [] {
                    let document = item.document
                    var key = skill.path == "." ? document.path : String(document.path.dropFirst(skill.path.count + 1))
                    if key.lowercased().hasSuffix(".md") { key = String(key.dropLast(3)) }
                    let model = DocumentParser.parse(item.data, path: document.path, skill: name, key: key, isSkillFile: false)
                    try count(1)
                    try deleteEntries(where: "doc = (SELECT id FROM documents WHERE file = ?)", [.text(document.file)])
                    let doc = try upsertDocument(document, folder: skill.folder, hash: item.hash, diagnostics: model.diagnostics)
                    let records = CodeRecord.records(for: model.entries)
                    for entry in model.entries { try insert(entry, doc: doc, records: records[entry.id], fresh: wasEmpty) }
                    written += model.diagnostics
                }
                if !gone.isEmpty || changed[skill.folder] != nil {
                    report.updated.append(SkillChange(name: name, path: skill.path, entries: try entryCount(skill.folder)))
                    try tick()
                }
                continue
            }
            // Parse the whole skill (new, SKILL.md changed, or renamed).
            if parsed == nil || parsed?.skill.name != name {
                let counted = parsed != nil
                parsed = ParseAhead.parse(skill, as: name, willParse: willParse, willRead: willRead)
                if !counted { try count(parsed!.skill.documents.count) }
            }
            let whole = parsed!.skill
            try deleteSkill(skill.folder)
            // The name may still be another folder's: one this build names later (a copy added
            // before it in path order, so the old holder becomes NAME~2) is cleared now and
            // written again when its turn comes, so no two rows ever hold one name.
            for other in try db.query("SELECT folder FROM skills WHERE name = ?", [.text(name)], { $0.text(0) }) {
                try deleteSkill(other)
            }
            try db.run(
                "INSERT INTO skills(folder, root_index, root, path, own_name, name, description) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    .text(skill.folder), .int(Int64(skill.rootIndex)), .text(skill.root), .text(skill.path),
                    .text(own.isEmpty ? name : own), .text(name), .text(whole.description),
                ])
            let byPath = Dictionary(grouping: whole.diagnostics, by: \.path)
            let known = Set(skill.documents.map(\.path))
            let orphans = whole.diagnostics.filter { !known.contains($0.path) }
            let notRead = Set(whole.diagnostics.filter { $0.id == .unreadable }.map(\.path))
            var docs: [String: Int64] = [:]
            for (offset, document) in skill.documents.enumerated() {
                var document = document
                let hash = hash(of: document, in: skill.folder, parsed: parsed)
                if hash == nil || notRead.contains(document.path) || unread[document.file] != nil {
                    document.stamp.mtime = Self.unreadStamp
                }
                docs[document.path] = try upsertDocument(
                    document, folder: skill.folder, hash: hash ?? "",
                    diagnostics: (byPath[document.path] ?? []) + (offset == 0 ? orphans : []))
            }
            // Entries of a document the scanner does not list (a link to another skill's file)
            // are not indexed: they could not be read back.
            let records = CodeRecord.records(for: whole.entries)
            for entry in whole.entries {
                guard let doc = docs[entry.source.path] else { continue }
                try insert(entry, doc: doc, records: records[entry.id], fresh: wasEmpty)
            }
            written += whole.diagnostics
            let change = SkillChange(name: name, path: skill.path, entries: whole.entries.count)
            if stored?.name == nil { report.added.append(change) } else { report.updated.append(change) }
        }
        report.diagnostics = duplicates + written
        try db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('duplicates', ?)", [.text(try Self.json(duplicates))])
        for (file, item) in unread {
            if storedDocuments[file] != nil {
                try db.run("UPDATE documents SET mtime = ? WHERE file = ?", [.int(Self.unreadStamp), .text(file)])
            } else if try db.scalar("SELECT count(*) FROM skills WHERE folder = ?", [.text(item.folder)]) == 1 {
                var document = item.document
                document.stamp.mtime = Self.unreadStamp
                _ = try upsertDocument(document, folder: item.folder, hash: "", diagnostics: [])
            }
        }
        for document in touched {
            try db.run(
                "UPDATE documents SET size = ?, mtime = ? WHERE file = ?",
                [.int(document.stamp.size), .int(document.stamp.mtime), .text(document.file)])
        }
        if foldersChanged {
            try db.run("DELETE FROM dirs")
            for (path, mtime) in scan.dirs {
                try db.run("INSERT INTO dirs(path, mtime) VALUES (?, ?)", [.text(path), .int(mtime)])
            }
        }
        if wasEmpty { try fillFullText() }
        try commitVocabulary()
        try updateManifests()
        try Freshness.recordBuild(db, startedAt: started)
        report.documentsParsed = parsedDocuments
        if verify { report.verified = scan.skills.reduce(0) { $0 + $1.documents.count } }
        report.skillCount = Int(try db.scalar("SELECT count(*) FROM skills WHERE name IS NOT NULL") ?? 0)
        report.entryCount = Int(try db.scalar("SELECT count(*) FROM entries") ?? 0)
        report.added.sort { $0.name < $1.name }
        report.updated.sort { $0.name < $1.name }
        report.removed.sort { $0.name < $1.name }
        return report
    }

    /// The stamp recorded for a document that could not be read: never equal to a real one, so
    /// the next freshness check finds the index stale and the next build reads it again.
    static let unreadStamp: Int64 = -1

    private func read(_ file: String) -> Data? {
        willRead?(file)
        return try? Data(contentsOf: URL(fileURLWithPath: file))
    }

    /// The skills recorded, with fresh stamps of their recorded documents (no folder walked).
    private func restat(_ skills: [String: StoredSkill], _ documents: [String: StoredDocument]) -> Scan {
        var byFolder: [String: [ScannedDocument]] = [:]
        for (file, stored) in documents {
            // A recorded file that vanished without its folder changing: walk after all.
            guard let stamp = FileStamp.of(file) else { return Scanner.scan(roots: roots) }
            byFolder[stored.folder, default: []].append(ScannedDocument(file: file, path: stored.path, stamp: stamp))
        }
        var scan = Scan()
        for (folder, skill) in skills {
            var docs = (byFolder[folder] ?? []).sorted { $0.path < $1.path }
            if let first = docs.firstIndex(where: {
                ($0.file as NSString).deletingLastPathComponent == folder
                    && ["SKILL.md", "skill.md"].contains(($0.file as NSString).lastPathComponent)
            }) {
                let skillFile = docs.remove(at: first)
                docs.insert(skillFile, at: 0)
            } else {
                docs = []
            }
            scan.skills.append(
                ScannedSkill(
                    folder: folder, rootIndex: skill.rootIndex, root: roots[min(skill.rootIndex, roots.count - 1)].path,
                    path: skill.path, documents: docs))
        }
        scan.skills.sort { ($0.rootIndex, $0.path) < ($1.rootIndex, $1.path) }
        return scan
    }

    private func entryCount(_ folder: String) throws -> Int {
        Int(
            try db.scalar(
                "SELECT count(*) FROM entries WHERE doc IN (SELECT id FROM documents WHERE folder = ?)", [.text(folder)]) ?? 0)
    }

    private func deleteSkill(_ folder: String) throws {
        try deleteEntries(where: "doc IN (SELECT id FROM documents WHERE folder = ?)", [.text(folder)])
        try db.run("DELETE FROM documents WHERE folder = ?", [.text(folder)])
        try db.run("DELETE FROM skills WHERE folder = ?", [.text(folder)])
    }

    /// Records a document (its id kept when it was recorded before) and returns its id.
    private func upsertDocument(_ document: ScannedDocument, folder: String, hash: String, diagnostics: [Diagnostic]) throws -> Int64 {
        try db.query(
            """
            INSERT INTO documents(file, folder, path, size, mtime, hash, diagnostics) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(file) DO UPDATE SET folder = excluded.folder, path = excluded.path, size = excluded.size,
                mtime = excluded.mtime, hash = excluded.hash, diagnostics = excluded.diagnostics
            RETURNING id
            """,
            [
                .text(document.file), .text(folder), .text(document.path), .int(document.stamp.size),
                .int(document.stamp.mtime), .text(hash), .text(try Self.json(diagnostics)),
            ]
        ) { $0.int(0) }[0]
    }

    /// Writes one entry of document `doc`, its code records and, for a checklist `skill check`
    /// matches, its items. Its words join `fts` (a trigger) and the vocabulary, or, in a new
    /// index (`fresh`), are kept for ``fillFullText()``.
    private func insert(_ entry: Entry, doc: Int64, records: [CodeRecord]?, fresh: Bool) throws {
        let langs = Set(entry.code.map(\.language).filter { !$0.isEmpty })
        let ancestors = entry.breadcrumb.dropLast()
        let keywords = entry.keywords.joined(separator: " ")
        // An entry inside a section without a heading of its own (`…~example-2`) is searched for
        // its code through that section, which holds the same blocks: the code is stored once.
        let code = EntryPlace.isPartOfSection(entry.id) ? "" : entry.code.map(\.code).joined(separator: "\n")
        // The headings are the breadcrumb column's and the title, most of the time: then they are
        // not stored again (``Schema``'s `crumbs`).
        let derivable = entry.breadcrumb.last == entry.title && !([entry.skill] + ancestors).contains { $0.contains(Self.crumbSeparator) }
        let columns: [SQLValue] = [
            .text(entry.title), .text(([entry.skill] + ancestors).joined(separator: Self.crumbSeparator)),
            .text(keywords), .text(entry.text), .text(code),
        ]
        try db.run(
            """
            INSERT OR IGNORE INTO entries(id, key, kind, role, hash, skill, doc, line, end_line, crumbs, langs,
                title, breadcrumb, keywords, text, code)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(entry.id), FNV1a.key(entry.id), .text(entry.kind.rawValue), .text(entry.role.rawValue),
                .text(String(FNV1a.hash(Data((entry.kind.rawValue + "\n" + entry.markdown).utf8)), radix: 16)),
                .text(entry.skill), .int(doc),
                .int(Int64(entry.source.line)), .int(Int64(entry.source.endLine)),
                .text(derivable ? "" : try Self.json(entry.breadcrumb)), .text(" " + langs.sorted().joined(separator: " ") + " "),
            ]
                + columns.prefix(3) + [compressor.stored(entry.text), compressor.stored(code)])
        guard db.changes == 1 else { return }
        let rowid = db.lastInsertRowID
        if fresh { try addFresh(rowid, columns) } else { try addToVocabulary(columns) }
        try insertSignatures(records ?? [], entry: rowid)
        if case .checklist(let checklist) = entry.details, !keywords.isEmpty {
            try db.run("INSERT INTO checklists(entry, items) VALUES (?, ?)", [.int(rowid), .text(try Self.json(checklist.items))])
        }
    }

    /// What joins the skill's name and the headings above an entry in the `breadcrumb` column.
    static let crumbSeparator = " › "

    /// An entry's headings (``Entry/breadcrumb``) from its `crumbs` column: the JSON array, or,
    /// when that is empty, the `breadcrumb` column's headings (after the skill's name) and `title`.
    static func crumbs(stored: String, breadcrumb: String, title: String) -> [String] {
        guard stored.isEmpty else { return (try? JSONDecoder().decode([String].self, from: Data(stored.utf8))) ?? [] }
        return Array(breadcrumb.components(separatedBy: crumbSeparator).dropFirst()) + [title]
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
