import Foundation
import SkillParser

/// A ``KnowledgeBase`` held in memory: skills parsed with `SkillLoader` from folders of skills,
/// searched by a naive scan (title and breadcrumb above keywords above text above code). For
/// tests, and for `skill serve` until the SQLite index backs it.
///
/// Loading is lazy: the first question loads every root, so a server answers `initialize`
/// before the skills are parsed. ``warmUp()`` loads them ahead of time.
public final class InMemoryKnowledgeBase: KnowledgeBase, @unchecked Sendable {
    /// The folders searched for skills, in precedence order (the first root wins a name).
    public let roots: [URL]
    private let lock = NSLock()
    private var snapshot: Snapshot?
    private var fingerprint: Int?
    private let log: ServerLog

    public init(roots: [URL], log: ServerLog = ServerLog(level: .off)) {
        self.roots = roots
        self.log = log
    }

    /// Loads the skills now rather than at the first question.
    public func warmUp() { _ = current() }

    public func search(_ query: SearchQuery) throws -> [SearchHit] {
        current().search(query)
    }

    public func entry(id: String) -> Entry? {
        let s = current()
        return s.byID[id].map { s.entries[$0] }
    }

    public func nearIDs(to id: String, limit: Int) -> [String] {
        current().nearIDs(to: id, limit: limit)
    }

    public func skills() -> [SkillSummary] {
        let s = current()
        return s.names.compactMap { s.skills[$0]?.summary }
    }

    public func skill(named name: String) -> SkillSummary? {
        current().skills[name]?.summary
    }

    public func file(skill name: String, path: String) -> Data? {
        guard let loaded = current().skills[name] else { return nil }
        let summary = loaded.summary
        guard summary.documents.contains(path) || summary.resources.contains(path) else { return nil }
        let folder = loaded.folder.resolvingSymlinksInPath().standardizedFileURL.path
        let file = loaded.folder.appendingPathComponent(path).resolvingSymlinksInPath().standardizedFileURL.path
        guard file.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else { return nil }
        return FileManager.default.contents(atPath: file)
    }

    public func refresh() -> Bool {
        let print = Self.fingerprint(of: roots)
        lock.lock()
        let changed = fingerprint != nil && fingerprint != print
        lock.unlock()
        guard changed else { return false }
        let fresh = Snapshot.load(roots: roots, log: log)
        lock.lock()
        snapshot = fresh
        fingerprint = print
        lock.unlock()
        log.info("skills changed: reloaded \(fresh.names.count) skills")
        return true
    }

    private func current() -> Snapshot {
        lock.lock()
        defer { lock.unlock() }
        if let snapshot { return snapshot }
        let print = Self.fingerprint(of: roots)
        let loaded = Snapshot.load(roots: roots, log: log)
        snapshot = loaded
        fingerprint = print
        return loaded
    }

    /// A hash of every file's path, size and modification time under the roots.
    static func fingerprint(of roots: [URL]) -> Int {
        var hasher = Hasher()
        let fm = FileManager.default
        for root in roots {
            hasher.combine(root.path)
            guard let walker = fm.enumerator(at: root, includingPropertiesForKeys: [.contentModificationDateKey, .fileSizeKey], options: []) else { continue }
            for case let url as URL in walker {
                if url.lastPathComponent == ".git" || url.lastPathComponent == "node_modules" {
                    walker.skipDescendants()
                    continue
                }
                let values = try? url.resourceValues(forKeys: [.contentModificationDateKey, .fileSizeKey])
                hasher.combine(url.path)
                hasher.combine(values?.fileSize ?? -1)
                hasher.combine(values?.contentModificationDate?.timeIntervalSinceReferenceDate ?? 0)
            }
        }
        return hasher.finalize()
    }
}

/// One skill as loaded: its summary and folder.
struct LoadedSkill: Sendable {
    var summary: SkillSummary
    var folder: URL
}

/// An immutable view of every skill, rebuilt whole when the skills change.
struct Snapshot: Sendable {
    var skills: [String: LoadedSkill] = [:]
    var names: [String] = []
    var entries: [Entry] = []
    var byID: [String: Int] = [:]
    var haystacks: [Haystack] = []

    /// Lower-cased fields of an entry, ready for matching.
    struct Haystack: Sendable {
        var title: String
        var breadcrumb: String
        var keywords: String
        var text: String
        var code: String
    }

    static func load(roots: [URL], log: ServerLog) -> Snapshot {
        var s = Snapshot()
        var owner: [String: Int] = [:]
        var seenRoots = Set<String>()
        for (rootIndex, root) in roots.enumerated() {
            guard seenRoots.insert(root.resolvingSymlinksInPath().standardizedFileURL.path).inserted else { continue }
            for folder in SkillFinder.skillFolders(in: root) {
                var skill = SkillLoader.load(folder: folder, root: root)
                if let first = owner[skill.name] {
                    if first != rootIndex {
                        log.info("skill \(skill.name) at \(folder.path) is shadowed by an earlier root")
                        continue
                    }
                    var n = 2
                    while s.skills["\(skill.name)~\(n)"] != nil { n += 1 }
                    log.warning("two skills named \(skill.name) in \(root.path): the one at \(folder.path) is indexed as \(skill.name)~\(n)")
                    skill = SkillLoader.load(folder: folder, root: root, as: "\(skill.name)~\(n)")
                }
                owner[skill.name] = rootIndex
                s.add(skill, folder: folder)
            }
        }
        s.names = s.skills.keys.sorted()
        return s
    }

    mutating func add(_ skill: Skill, folder: URL) {
        let prefix = skill.path == "." ? "" : skill.path + "/"
        let docs = skill.documents.map { $0.path.hasPrefix(prefix) ? String($0.path.dropFirst(prefix.count)) : $0.path }
        let skillFile = docs.first ?? "SKILL.md"
        skills[skill.name] = LoadedSkill(
            summary: SkillSummary(
                name: skill.name, description: skill.description, path: skill.path, skillFile: skillFile,
                documents: docs, resources: skill.resources, entryCount: skill.entries.count),
            folder: folder)
        for entry in skill.entries where byID[entry.id] == nil {
            byID[entry.id] = entries.count
            entries.append(entry)
            haystacks.append(Haystack(
                title: entry.title.lowercased(),
                breadcrumb: entry.breadcrumb.joined(separator: " ").lowercased(),
                keywords: entry.keywords.joined(separator: " ").lowercased(),
                text: entry.text.lowercased(),
                code: entry.code.map(\.code).joined(separator: "\n").lowercased()))
        }
    }

    func search(_ query: SearchQuery) -> [SearchHit] {
        var terms: [String] = []
        var kind = query.kind
        var skill = query.skill
        for word in Self.words(query.text) {
            if word.hasPrefix("kind:") { kind = EntryKind(rawValue: String(word.dropFirst(5))); continue }
            if word.hasPrefix("skill:") { skill = String(word.dropFirst(6)); continue }
            let term = word.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "*\"'(),;:!?"))
            if !term.isEmpty { terms.append(term) }
        }
        let limit = max(0, query.limit)
        var candidates: [Int] = []
        for i in entries.indices {
            if let kind, entries[i].kind != kind { continue }
            if let skill, entries[i].skill != skill { continue }
            candidates.append(i)
        }
        if terms.isEmpty {
            guard kind != nil || skill != nil else { return [] }
            return candidates.prefix(limit).map { hit(entries[$0], score: 0, terms: []) }
        }
        var scored = score(candidates, terms: terms, all: true)
        if scored.isEmpty { scored = score(candidates, terms: terms, all: false) }
        scored.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        return scored.prefix(limit).map { hit(entries[$0.0], score: $0.1, terms: terms) }
    }

    private func score(_ candidates: [Int], terms: [String], all: Bool) -> [(Int, Double)] {
        var out: [(Int, Double)] = []
        for i in candidates {
            let h = haystacks[i]
            var total = 0.0
            var matched = 0
            for term in terms {
                var s = 0.0
                if h.title.contains(term) { s += 4 }
                if h.breadcrumb.contains(term) { s += 2 }
                if h.keywords.contains(term) { s += 2 }
                if h.text.contains(term) { s += 1 }
                if h.code.contains(term) { s += 0.5 }
                if s > 0 { matched += 1 }
                total += s
            }
            if all ? matched == terms.count : matched > 0 {
                // A specific kind beats the plain section holding the same words.
                let kindBonus = entries[i].kind == .section ? 0 : 0.25
                out.append((i, total + kindBonus))
            }
        }
        return out
    }

    private func hit(_ e: Entry, score: Double, terms: [String]) -> SearchHit {
        SearchHit(
            id: e.id, kind: e.kind, title: e.title, skill: e.skill, breadcrumb: e.breadcrumb,
            snippet: Self.snippet(e.text.isEmpty ? e.code.first?.code ?? "" : e.text, terms: terms),
            score: (score * 1000).rounded() / 1000, source: e.source)
    }

    /// Splits on white space, keeping `"quoted phrases"` whole.
    static func words(_ text: String) -> [String] {
        var out: [String] = []
        var current = ""
        var quoted = false
        for ch in text {
            if ch == "\"" {
                if quoted, !current.isEmpty { out.append(current); current = "" }
                quoted.toggle()
            } else if ch.isWhitespace && !quoted {
                if !current.isEmpty { out.append(current); current = "" }
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// About 110 characters around the first match, matches marked `**…**`.
    static func snippet(_ text: String, terms: [String], width: Int = 110) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        let lower = flat.lowercased()
        var startOffset = 0
        if let first = terms.compactMap({ lower.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            startOffset = max(0, lower.distance(from: lower.startIndex, to: first.lowerBound) - 30)
        }
        let chars = Array(flat)
        guard !chars.isEmpty else { return "" }
        startOffset = min(startOffset, chars.count)
        while startOffset > 0, startOffset < chars.count, !chars[startOffset - 1].isWhitespace { startOffset -= 1 }
        let end = min(chars.count, startOffset + width)
        var piece = String(chars[startOffset..<end])
        if end < chars.count { piece += "…" }
        if startOffset > 0 { piece = "…" + piece }
        for term in terms.sorted(by: { $0.count > $1.count }) where !term.isEmpty {
            piece = mark(term, in: piece)
        }
        return piece
    }

    private static func mark(_ term: String, in text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let r = rest.range(of: term, options: .caseInsensitive) {
            out += rest[..<r.lowerBound]
            let word = rest[r]
            if out.hasSuffix("**") { out += word } else { out += "**\(word)**" }
            rest = rest[r.upperBound...]
        }
        return out + rest
    }

    func nearIDs(to id: String, limit: Int) -> [String] {
        let parts = id.split(separator: "#", maxSplits: 1).map(String.init)
        let document = parts[0]
        let fragment = Array((parts.count > 1 ? parts[1] : "").lowercased().utf8)
        let skillName = id.split(separator: "/", maxSplits: 1).first.map(String.init) ?? id
        let whole = Array(id.lowercased().utf8)
        // Same document first, then same skill, then anything; by edit distance within each.
        var scored: [(String, Int, Int)] = []
        for e in entries {
            let candidate = e.id.split(separator: "#", maxSplits: 1).map(String.init)
            if candidate[0] == document, parts.count > 1 {
                scored.append((e.id, 0, Self.distance(fragment, Array((candidate.count > 1 ? candidate[1] : "").lowercased().utf8))))
            } else if e.skill == skillName {
                scored.append((e.id, 1, Self.distance(whole, Array(e.id.lowercased().utf8))))
            } else {
                scored.append((e.id, 2, Self.distance(whole, Array(e.id.lowercased().utf8))))
            }
        }
        scored.sort { ($0.1, $0.2, $0.0) < ($1.1, $1.2, $1.0) }
        return scored.prefix(limit).map(\.0)
    }

    /// Levenshtein distance over bytes.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &row)
        }
        return previous[b.count]
    }
}
