import Foundation
import SkillCheck
import SkillParser

/// Writes the index: compares what is on disk with what the index recorded and re-parses only
/// what changed, all inside one transaction.
struct IndexBuilder {
    let db: Database
    let roots: [URL]
    /// Stop (throw ``IndexError/interrupted``) after parsing this many documents: a test hook
    /// standing for a crash in the middle of a build.
    var stopAfterDocuments: Int?
    var progress: ((BuildProgress) -> Void)?
    /// Read and hash every document, whatever its stamp says (`skill build --verify`).
    var verify = false
    /// Test hook: called with a document's path just before it is read.
    var willRead: ((String) -> Void)?
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
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    // MARK: Build

    /// Brings the index up to date with the roots; call inside a transaction.
    /// - Parameter walk: walk the roots even when no folder changed (a new index, or asked).
    func update(walk forceWalk: Bool) throws -> BuildReport {
        let started = clock()
        var report = BuildReport(full: forceWalk)
        let storedSkills = Dictionary(uniqueKeysWithValues: try db.query(
            "SELECT folder, root_index, path, own_name, name FROM skills"
        ) {
            ($0.text(0), StoredSkill(rootIndex: Int($0.int(1)), path: $0.text(2), ownName: $0.text(3), name: $0.isNull(4) ? nil : $0.text(4)))
        })
        let storedDocuments = Dictionary(uniqueKeysWithValues: try db.query(
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

        // Which documents changed: size and mtime first, then the content hash.
        var changed: [String: [Changed]] = [:]
        var touched: [ScannedDocument] = []
        var unread: [String: (document: ScannedDocument, folder: String)] = [:]
        for skill in scan.skills {
            for document in skill.documents {
                let stored = storedDocuments[document.file]
                if !verify, let stored, stored.folder == skill.folder, stored.size == document.stamp.size, stored.mtime == document.stamp.mtime {
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
        }

        /// A document's content hash: from this build's comparison, else read now; `nil` when it
        /// cannot be read.
        func hash(of document: ScannedDocument, in folder: String) -> String? {
            if let known = changed[folder]?.first(where: { $0.document.file == document.file })?.hash { return known }
            return read(document.file).map(Scanner.hash)
        }

        // Skills whose SKILL.md changed (or that are new) are parsed whole: their name and
        // frontmatter apply to every document.
        var loaded: [String: Skill] = [:]
        var parsedDocuments = 0
        var toLoad = scan.skills.filter { skill in
            storedSkills[skill.folder] == nil || changed[skill.folder]?.contains { $0.document.file == skill.documents[0].file } == true
        }
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
        for skill in toLoad {
            let parsed = SkillLoader.load(folder: URL(fileURLWithPath: skill.folder), root: URL(fileURLWithPath: skill.root))
            loaded[skill.folder] = parsed
            try count(parsed.documents.count)
            try tick()
        }

        // A Claude Code plugin's skills are named PLUGIN:SKILL, as Claude Code names them.
        let prefixes = roots.map { ClaudePlugin.owning(skillsFolder: $0).map { $0.name + ":" } ?? "" }
        func ownName(_ skill: ScannedSkill) -> String {
            if let loaded = loaded[skill.folder] { return prefixes[min(skill.rootIndex, prefixes.count - 1)] + loaded.name }
            return storedSkills[skill.folder]?.ownName
                ?? prefixes[min(skill.rootIndex, prefixes.count - 1)] + URL(fileURLWithPath: skill.folder).lastPathComponent
        }

        // Names: the first root wins; twice in one root, the later one is NAME~2.
        var assigned: [String: String] = [:]
        var firstRoot: [String: (root: Int, folder: String)] = [:]
        var used: [String: Int] = [:]
        for skill in scan.skills {
            let own = ownName(skill)
            if let first = firstRoot[own] {
                let firstPath = first.folder + "/" + "SKILL.md"
                if first.root != skill.rootIndex {
                    report.diagnostics.append(Diagnostic(
                        .warning, .duplicateSkill,
                        "skill '\(own)' is also in \(first.folder), an earlier root, which wins; this one is not indexed",
                        path: skill.documents[0].path, line: 1))
                    continue
                }
                var n = (used[own] ?? 1) + 1
                while assigned.values.contains("\(own)~\(n)") { n += 1 }
                used[own] = n
                assigned[skill.folder] = "\(own)~\(n)"
                report.diagnostics.append(Diagnostic(
                    .warning, .duplicateSkill,
                    "skill '\(own)' is also at \(firstPath); this one is indexed as '\(own)~\(n)'; rename one of them",
                    path: skill.documents[0].path, line: 1))
            } else {
                firstRoot[own] = (skill.rootIndex, skill.folder)
                assigned[skill.folder] = own
            }
            _ = own
        }
        try db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('duplicates', ?)", [.text(try Self.json(report.diagnostics))])

        // Skills gone from disk.
        let scanned = Set(scan.skills.map(\.folder))
        for (folder, stored) in storedSkills where !scanned.contains(folder) {
            if let name = stored.name {
                report.removed.append(SkillChange(name: name, path: stored.path, entries: try entryCount(folder)))
            }
            try deleteSkill(folder)
        }

        // Skills on disk.
        toLoad.removeAll()
        for skill in scan.skills {
            let stored = storedSkills[skill.folder]
            let own = ownName(skill)
            guard let name = assigned[skill.folder] else {
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
                    try upsertDocument(document, folder: skill.folder, hash: hash(of: document, in: skill.folder) ?? "", diagnostics: [])
                }
                continue
            }
            if loaded[skill.folder] == nil, stored?.name == name, stored?.rootIndex == skill.rootIndex {
                // Same skill, same name: re-parse only the documents that changed.
                let current = Set(skill.documents.map(\.file))
                let gone = (storedFilesByFolder[skill.folder] ?? []).filter { !current.contains($0) }
                for file in gone {
                    try db.run("DELETE FROM entries WHERE file = ?", [.text(file)])
                    try db.run("DELETE FROM documents WHERE file = ?", [.text(file)])
                }
                for item in changed[skill.folder] ?? [] {
                    let document = item.document
                    var key = skill.path == "." ? document.path : String(document.path.dropFirst(skill.path.count + 1))
                    if key.lowercased().hasSuffix(".md") { key = String(key.dropLast(3)) }
                    let parsed = DocumentParser.parse(item.data, path: document.path, skill: name, key: key, isSkillFile: false)
                    try count(1)
                    try db.run("DELETE FROM entries WHERE file = ?", [.text(document.file)])
                    let records = CodeRecord.records(for: parsed.entries)
                    for entry in parsed.entries { try insert(entry, folder: skill.folder, root: skill.root, records: records[entry.id]) }
                    try upsertDocument(document, folder: skill.folder, hash: item.hash, diagnostics: parsed.diagnostics)
                    report.diagnostics += parsed.diagnostics
                }
                if !gone.isEmpty || changed[skill.folder] != nil {
                    report.updated.append(SkillChange(name: name, path: skill.path, entries: try entryCount(skill.folder)))
                    try tick()
                }
                continue
            }
            // Parse the whole skill (new, SKILL.md changed, or renamed).
            var parsed = loaded[skill.folder]
            if parsed == nil || parsed?.name != name {
                parsed = SkillLoader.load(
                    folder: URL(fileURLWithPath: skill.folder), root: URL(fileURLWithPath: skill.root),
                    as: name)
                if loaded[skill.folder] == nil { try count(parsed!.documents.count) }
            }
            let model = parsed!
            try deleteSkill(skill.folder)
            try db.run(
                "INSERT INTO skills(folder, root_index, root, path, own_name, name, description) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [.text(skill.folder), .int(Int64(skill.rootIndex)), .text(skill.root), .text(skill.path),
                 .text(own.isEmpty ? name : own), .text(name), .text(model.description)])
            let records = CodeRecord.records(for: model.entries)
            for entry in model.entries { try insert(entry, folder: skill.folder, root: skill.root, records: records[entry.id]) }
            let byPath = Dictionary(grouping: model.diagnostics, by: \.path)
            let known = Set(skill.documents.map(\.path))
            let orphans = model.diagnostics.filter { !known.contains($0.path) }
            let notRead = Set(model.diagnostics.filter { $0.id == .unreadable }.map(\.path))
            for (offset, document) in skill.documents.enumerated() {
                var document = document
                let hash = hash(of: document, in: skill.folder)
                if hash == nil || notRead.contains(document.path) || unread[document.file] != nil { document.stamp.mtime = Self.unreadStamp }
                try upsertDocument(
                    document, folder: skill.folder, hash: hash ?? "",
                    diagnostics: (byPath[document.path] ?? []) + (offset == 0 ? orphans : []))
            }
            report.diagnostics += model.diagnostics
            let change = SkillChange(name: name, path: skill.path, entries: model.entries.count)
            if stored?.name == nil { report.added.append(change) } else { report.updated.append(change) }
        }
        for (file, item) in unread {
            if storedDocuments[file] != nil {
                try db.run("UPDATE documents SET mtime = ? WHERE file = ?", [.int(Self.unreadStamp), .text(file)])
            } else if try db.scalar("SELECT count(*) FROM skills WHERE folder = ?", [.text(item.folder)]) == 1 {
                var document = item.document
                document.stamp.mtime = Self.unreadStamp
                try upsertDocument(document, folder: item.folder, hash: "", diagnostics: [])
            }
        }
        for document in touched {
            try db.run("UPDATE documents SET size = ?, mtime = ? WHERE file = ?",
                       [.int(document.stamp.size), .int(document.stamp.mtime), .text(document.file)])
        }
        if foldersChanged {
            try db.run("DELETE FROM dirs")
            for (path, mtime) in scan.dirs {
                try db.run("INSERT INTO dirs(path, mtime) VALUES (?, ?)", [.text(path), .int(mtime)])
            }
        }
        try Freshness.recordBuild(db, startedAt: started)
        report.documentsParsed = parsedDocuments
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
            if let first = docs.firstIndex(where: { ($0.file as NSString).deletingLastPathComponent == folder && ["SKILL.md", "skill.md"].contains(($0.file as NSString).lastPathComponent) }) {
                let skillFile = docs.remove(at: first)
                docs.insert(skillFile, at: 0)
            } else {
                docs = []
            }
            scan.skills.append(ScannedSkill(
                folder: folder, rootIndex: skill.rootIndex, root: roots[min(skill.rootIndex, roots.count - 1)].path,
                path: skill.path, documents: docs))
        }
        scan.skills.sort { ($0.rootIndex, $0.path) < ($1.rootIndex, $1.path) }
        return scan
    }

    private func entryCount(_ folder: String) throws -> Int {
        Int(try db.scalar("SELECT count(*) FROM entries WHERE folder = ?", [.text(folder)]) ?? 0)
    }

    private func deleteSkill(_ folder: String) throws {
        try db.run("DELETE FROM entries WHERE folder = ?", [.text(folder)])
        try db.run("DELETE FROM documents WHERE folder = ?", [.text(folder)])
        try db.run("DELETE FROM skills WHERE folder = ?", [.text(folder)])
    }

    private func upsertDocument(_ document: ScannedDocument, folder: String, hash: String, diagnostics: [Diagnostic]) throws {
        try db.run(
            "INSERT OR REPLACE INTO documents(file, folder, path, size, mtime, hash, diagnostics) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [.text(document.file), .text(folder), .text(document.path), .int(document.stamp.size),
             .int(document.stamp.mtime), .text(hash), .text(try Self.json(diagnostics))])
    }

    private func insert(_ entry: Entry, folder: String, root: String, records: [CodeRecord]?) throws {
        let langs = Set(entry.code.map(\.language).filter { !$0.isEmpty })
        let ancestors = entry.breadcrumb.dropLast()
        try db.run(
            """
            INSERT OR IGNORE INTO entries(id, kind, role, hash, skill, folder, file, path, line, end_line, crumbs, langs,
                title, breadcrumb, keywords, text, code)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(entry.id), .text(entry.kind.rawValue), .text(entry.role.rawValue),
             .text(String(FNV1a.hash(Data((entry.kind.rawValue + "\n" + entry.markdown).utf8)), radix: 16)),
             .text(entry.skill), .text(folder),
             .text(root + "/" + entry.source.path), .text(entry.source.path),
             .int(Int64(entry.source.line)), .int(Int64(entry.source.endLine)),
             .text(try Self.json(entry.breadcrumb)), .text(" " + langs.sorted().joined(separator: " ") + " "),
             .text(entry.title), .text(([entry.skill] + ancestors).joined(separator: " › ")),
             .text(entry.keywords.joined(separator: " ")), .text(entry.text),
             .text(entry.code.map(\.code).joined(separator: "\n"))])
        if try db.scalar("SELECT changes()") == 1 {
            let rowid = db.lastInsertRowID
            try db.run("INSERT INTO entry_json(rowid, json) VALUES (?, ?)", [.int(rowid), .text(try Self.json(entry))])
            try insertSignatures(records ?? [], entry: rowid)
        }
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
