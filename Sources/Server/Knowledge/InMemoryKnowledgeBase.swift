import Foundation
import SkillParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    private var nextCheck = Date.distantPast
    private let log: ServerLog

    /// A knowledge base over the skills under `roots` (parsed on first use).
    public init(roots: [URL], log: ServerLog = ServerLog(level: .off)) {
        self.roots = roots
        self.log = log
    }

    /// Loads the skills now rather than at the first question.
    public func warmUp() { _ = current() }

    public func search(_ query: KnowledgeQuery) throws -> [SearchHit] {
        current().search(query)
    }

    public func entry(id: String) -> Entry? {
        let s = current()
        return s.byID[id].map { s.entries[$0] }
    }

    public func nearIDs(to id: String, limit: Int) -> [String] {
        current().nearIDs(to: id, limit: limit)
    }

    public func skills() -> [SkillInfo] {
        let s = current()
        return s.names.compactMap { s.skills[$0]?.summary }
    }

    public func skill(named name: String) -> SkillInfo? {
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
        // Walking large roots costs time: after a walk of t > 50 ms, wait 10 t before the next.
        lock.lock()
        let due = Date() >= nextCheck
        lock.unlock()
        guard due else { return false }
        let started = Date()
        let stamp = Self.fingerprint(of: roots)
        lock.lock()
        let took = Date().timeIntervalSince(started)
        nextCheck = took > 0.05 ? Date().addingTimeInterval(took * 10) : .distantPast
        let changed = fingerprint != nil && fingerprint != stamp
        lock.unlock()
        guard changed else { return false }
        let fresh = Snapshot.load(roots: roots, log: log)
        lock.lock()
        snapshot = fresh
        fingerprint = stamp
        lock.unlock()
        log.info("skills changed: reloaded \(fresh.names.count) skills")
        return true
    }

    private func current() -> Snapshot {
        lock.lock()
        defer { lock.unlock() }
        if let snapshot { return snapshot }
        let stamp = Self.fingerprint(of: roots)
        let loaded = Snapshot.load(roots: roots, log: log)
        snapshot = loaded
        fingerprint = stamp
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
    var summary: SkillInfo
    var folder: URL
}

/// An immutable view of every skill, rebuilt whole when the skills change.
struct Snapshot: Sendable {
    var skills: [String: LoadedSkill] = [:]
    var names: [String] = []
    var entries: [Entry] = []
    var byID: [String: Int] = [:]

    /// An inverted index over lower-cased tokens: each token's postings pack an entry index and
    /// the fields it occurs in (`entry << 5 | fields`). Query words match every indexed token that
    /// contains them, found by one scan of the token bytes.
    var vocabulary: [[UInt8]: Int] = [:]
    var tokenBytes: [UInt8] = [0]
    var tokenStarts: [Int] = []
    var postings: [[UInt32]] = []

    /// Field bits and their weights: title, breadcrumb, keywords, text, code.
    static let fieldWeights: [Double] = [4, 2, 2, 1, 0.5]

    static func weight(_ fields: UInt8) -> Double {
        var w = 0.0
        for bit in 0..<5 where fields & (1 << bit) != 0 { w += fieldWeights[bit] }
        return w
    }

    /// Lower-cased tokens: runs of letters, digits, `_` and non-ASCII bytes, with a leading `@`
    /// or `#` kept (`@observable`, `#expect`).
    static func tokens(_ text: String) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in text.lowercased().utf8 {
            let isWord = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte >= 0x80
            if isWord {
                current.append(byte)
            } else {
                if !current.isEmpty, current != [0x40], current != [0x23] { out.append(current) }
                current = (byte == 0x40 || byte == 0x23) ? [byte] : []
            }
        }
        if !current.isEmpty, current != [0x40], current != [0x23] { out.append(current) }
        return out
    }

    /// Ids of the indexed tokens that contain `needle`; a needle of three bytes or fewer (`a`,
    /// `is`, `the`) matches only itself, else it would match most of the vocabulary.
    func tokensContaining(_ needle: [UInt8]) -> [Int] {
        guard !needle.isEmpty, !tokenStarts.isEmpty else { return [] }
        if needle.count <= 3 { return vocabulary[needle].map { [$0] } ?? [] }
        var ids: [Int] = []
        tokenBytes.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                let base = h.baseAddress!
                let last = h.count - n.count
                var i = 0
                while i <= last {
                    guard let found = memchr(base + i, Int32(n[0]), last - i + 1) else { return }
                    let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if at > last { return }
                    if memcmp(base + at, n.baseAddress!, n.count) == 0 {
                        // The token holding this byte: the last start at or before it.
                        var lo = 0, hi = tokenStarts.count - 1
                        while lo < hi {
                            let mid = (lo + hi + 1) / 2
                            if tokenStarts[mid] <= at { lo = mid } else { hi = mid - 1 }
                        }
                        ids.append(lo)
                        // Skip to the end of this token: one hit per token.
                        if let end = memchr(base + at, 0, h.count - at) {
                            i = base.distance(to: end.assumingMemoryBound(to: UInt8.self)) + 1
                            continue
                        }
                        return
                    }
                    i = at + 1
                }
            }
        }
        return ids
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
            summary: SkillInfo(
                name: skill.name, description: skill.description, path: skill.path, skillFile: skillFile,
                documents: docs, resources: skill.resources, entryCount: skill.entries.count),
            folder: folder)
        for entry in skill.entries where byID[entry.id] == nil {
            byID[entry.id] = entries.count
            entries.append(entry)
            index(entry, at: entries.count - 1)
        }
    }

    mutating func index(_ entry: Entry, at position: Int) {
        var fields: [Int: UInt8] = [:]
        let sources = [entry.title, entry.breadcrumb.joined(separator: " "), entry.keywords.joined(separator: " "), entry.text, entry.code.map(\.code).joined(separator: "\n")]
        for (bit, text) in sources.enumerated() {
            for token in Self.tokens(text) {
                let id: Int
                if let known = vocabulary[token] {
                    id = known
                } else {
                    id = postings.count
                    vocabulary[token] = id
                    tokenStarts.append(tokenBytes.count)
                    tokenBytes += token
                    tokenBytes.append(0)
                    postings.append([])
                }
                fields[id, default: 0] |= 1 << UInt8(bit)
            }
        }
        for (id, mask) in fields { postings[id].append(UInt32(position) << 5 | UInt32(mask)) }
    }

    func search(_ query: KnowledgeQuery) -> [SearchHit] {
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
        func admits(_ i: Int) -> Bool {
            if let kind, entries[i].kind != kind { return false }
            if let skill, entries[i].skill != skill { return false }
            return true
        }
        if terms.isEmpty {
            guard kind != nil || skill != nil else { return [] }
            return entries.indices.lazy.filter(admits).prefix(limit).map { hit(entries[$0], score: 0, terms: []) }
        }
        // Per term: the fields of every entry holding all of the term's tokens.
        var total = [Double](repeating: 0, count: entries.count)
        var matched = [UInt16](repeating: 0, count: entries.count)
        var touched: [Int] = []
        var termCount = 0
        for term in terms {
            let parts = Self.tokens(term)
            guard !parts.isEmpty else { continue }
            termCount += 1
            // Dense per-term arrays: the fields seen, and how many of the term's parts matched.
            var mask = [UInt8](repeating: 0, count: entries.count)
            var partsSeen = [UInt8](repeating: 0, count: entries.count)
            var seen: [Int] = []
            for (n, part) in parts.enumerated() {
                for id in tokensContaining(part) {
                    for posting in postings[id] {
                        let e = Int(posting >> 5)
                        if Int(partsSeen[e]) == n {
                            if n == 0 { seen.append(e) }
                            partsSeen[e] = UInt8(n + 1)
                        }
                        if Int(partsSeen[e]) == n + 1 { mask[e] |= UInt8(posting & 31) }
                    }
                }
            }
            for e in seen where Int(partsSeen[e]) == parts.count {
                if matched[e] == 0 { touched.append(e) }
                matched[e] += 1
                total[e] += Self.weight(mask[e])
            }
        }
        var scored: [(Int, Double)] = []
        for all in [true, false] {
            for e in touched where admits(e) && (all ? Int(matched[e]) == termCount : matched[e] > 0) {
                // A specific kind beats the plain section holding the same words.
                scored.append((e, total[e] + (entries[e].kind == .section ? 0 : 0.25)))
            }
            if !scored.isEmpty { break }
        }
        scored.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        return scored.prefix(limit).map { hit(entries[$0.0], score: $0.1, terms: terms) }
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

    /// About 90 characters around the first match, matches marked `**…**`. Works on byte
    /// offsets so a long entry costs no more than a short one.
    static func snippet(_ text: String, terms: [String], width: Int = 90) -> String {
        let bytes = Array(text.utf8)
        var matchAt = 0
        let lowered = Array(text.lowercased().utf8)
        if lowered.count == bytes.count {
            var best = Int.max
            for term in terms {
                if let at = firstOffset(of: Array(term.utf8), in: lowered), at < best { best = at }
            }
            if best != Int.max { matchAt = best }
        }
        var start = max(0, matchAt - 25)
        while start > 0, start < bytes.count, bytes[start - 1] != 0x20, bytes[start - 1] != 0x0A { start -= 1 }
        while start < bytes.count, bytes[start] & 0xC0 == 0x80 { start += 1 }
        let tail = String(decoding: bytes[start...].prefix(width * 4), as: UTF8.self)
        var piece = String(tail.prefix(width)).split(whereSeparator: \.isNewline).joined(separator: " ")
        if text.utf8.count > start + piece.utf8.count { piece += "…" }
        if start > 0 { piece = "…" + piece }
        for term in terms.sorted(by: { $0.count > $1.count }) where !term.isEmpty {
            piece = mark(term, in: piece)
        }
        return piece
    }

    /// The byte offset of the first `needle` in `haystack`.
    static func firstOffset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        return haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                let base = h.baseAddress!
                let last = h.count - n.count
                var i = 0
                while i <= last {
                    guard let found = memchr(base + i, Int32(n[0]), last - i + 1) else { return nil }
                    let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + at, n.baseAddress!, n.count) == 0 { return at }
                    i = at + 1
                }
                return nil
            }
        }
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
