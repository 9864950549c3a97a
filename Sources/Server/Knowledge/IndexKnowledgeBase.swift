import Foundation
import SkillCheck
import SkillIndex
import SkillParser

/// The ``KnowledgeBase`` of `skill serve`: the SQLite index of the skills, brought up to date at
/// start and whenever the skills change.
public final class IndexKnowledgeBase: KnowledgeBase, Sendable {
    private let index: SkillIndex
    private struct State {
        /// The skills as the server lists them, kept until the index changes (each tool call asks).
        var listing: [SkillInfo]?
        /// The skills' manifests, kept until the index changes.
        var manifestListing: [SkillManifest]?
        var embeddingPending = false
        /// The server is stopping: the embedding pass ends before its next batch.
        var stopping = false
    }
    private let state = Locked(State())
    /// Left when the first refresh is done; every question waits for it, `initialize` does not.
    private let ready = DispatchGroup()
    /// Embeds the entries without vectors after each refresh, one at a time, on one core, so
    /// that answers keep the other (searches use the vectors there are meanwhile).
    private let embedding = DispatchQueue(label: "skill.embedding", qos: .utility)
    private let log: ServerLog

    /// A knowledge base over `index`, which it refreshes at once in the background.
    public init(index: SkillIndex, log: ServerLog = ServerLog(level: .off)) {
        self.index = index
        self.log = log
        ready.enter()
        DispatchQueue.global().async { [ready] in
            defer { ready.leave() }
            do {
                let report = try index.refresh()
                log.info("index: \(report.skillCount) skills, \(report.entryCount) entries, \(report.documentsParsed) documents parsed")
                for diagnostic in report.diagnostics { log.debug(diagnostic.formatted) }
            } catch let error as IndexError where error.leavesIndexReadable && index.exists {
                // The server answers from the index as last committed.
                if case .unwritable(let path, let why) = error {
                    log.warning("cannot refresh the index \(path): \(why); answering from the index as last committed")
                }
            } catch {
                log.error("cannot build the index: \(error.localizedDescription)")
            }
        }
        embedMissing()
    }

    /// Queues an embedding pass unless one is already waiting.
    private func embedMissing() {
        let queued = state.withLock { state in
            defer { state.embeddingPending = true }
            return !state.embeddingPending
        }
        guard queued else { return }
        embedding.async { [self] in
            // The first refresh first; a server stopping meanwhile embeds nothing.
            while ready.wait(timeout: .now() + 0.1) == .timedOut {
                if isStopping { return }
            }
            if isStopping { return }
            state.withLock { $0.embeddingPending = false }
            do {
                let report = try index.embed(workers: 1, shouldStop: { [self] in isStopping })
                if report.embedded > 0 {
                    log.info(String(format: "vectors: %d embedded in %.1f s", report.embedded, report.seconds))
                }
            } catch {
                log.error("cannot embed the entries: \(error.localizedDescription)")
            }
        }
    }

    /// Ends the background embedding pass after its batch in flight and waits for it: a process
    /// must not exit while a thread of its own still embeds. A first refresh still running is
    /// given up to ``closingGrace`` to end, so that its new index is renamed into place rather
    /// than left as a temporary file. Call once, before exiting.
    public func close() {
        state.withLock { $0.stopping = true }
        _ = ready.wait(timeout: .now() + Self.closingGrace)
        embedding.sync {}
    }

    /// How long ``close()`` waits for a first refresh still running.
    static let closingGrace: DispatchTimeInterval = .seconds(10)

    private var isStopping: Bool {
        state.withLock { $0.stopping }
    }

    public func search(_ query: KnowledgeQuery) throws -> SearchResults {
        ready.wait()
        return try index.search(query.text, kind: query.kind, skill: query.skill, limit: query.limit)
    }

    public func entry(id: String) -> Entry? {
        ready.wait()
        return try? index.entry(id: id)
    }

    public func nearIDs(to id: String, limit: Int) -> [String] {
        ready.wait()
        return (try? index.nearIDs(to: id, limit: limit)) ?? []
    }

    public func skills() -> [SkillInfo] {
        ready.wait()
        return state.withLock { state in
            if let listing = state.listing { return listing }
            let fresh = ((try? index.skills()) ?? []).map(Self.info)
            state.listing = fresh
            return fresh
        }
    }

    public func manifests() -> [SkillManifest] {
        ready.wait()
        return state.withLock { state in
            if let manifestListing = state.manifestListing { return manifestListing }
            let fresh = (try? index.manifests()) ?? []
            state.manifestListing = fresh
            return fresh
        }
    }

    public func noSkillsMessage() -> String {
        index.configuration.noSkillsMessage
    }

    public func skill(named name: String) -> SkillInfo? {
        skills().first { $0.name == name }
    }

    public func file(skill name: String, path: String) -> Data? {
        resolved(skill: name, path: path).flatMap(FileManager.default.contents(atPath:))
    }

    public func file(skill name: String, path: String, offset: Int, count: Int) -> (data: Data, size: Int)? {
        guard let file = resolved(skill: name, path: path), let handle = FileHandle(forReadingAtPath: file) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), (try? handle.seek(toOffset: UInt64(min(max(offset, 0), Int(size))))) != nil else {
            return nil
        }
        return ((try? handle.read(upToCount: max(count, 0))) ?? Data(), Int(size))
    }

    /// The real path of a file of a skill: one of its listed files, inside its folder once
    /// symbolic links are resolved.
    private func resolved(skill name: String, path: String) -> String? {
        guard let info = skill(named: name),
            info.documents.contains(path) || info.resources.contains(path)
                || manifests().contains(where: { $0.name == name && $0.files.contains { $0.path == path } }),
            let folder = try? index.skillFolder(named: name)
        else { return nil }
        let real = folder.resolvingSymlinksInPath().standardizedFileURL.path
        let file = folder.appendingPathComponent(path).resolvingSymlinksInPath().standardizedFileURL.path
        return file.hasPrefix(real.hasSuffix("/") ? real : real + "/") ? file : nil
    }

    public func checker() -> Checker? {
        ready.wait()
        return try? index.checker()
    }

    public func refresh() -> Bool {
        ready.wait()
        let generation = try? index.manifestGeneration()
        var changed = false
        if (try? index.isStale()) == true {
            changed = (try? index.refresh())?.changed == true
        } else {
            // A file edited in place that is not a markdown document (a script, an asset): the
            // freshness check does not see it, the manifests must.
            _ = try? index.refreshManifests()
        }
        changed = changed || (try? index.manifestGeneration()) != generation
        guard changed else { return false }
        state.withLock { state in
            state.listing = nil
            state.manifestListing = nil
        }
        embedMissing()
        return true
    }

    public func watchedFolders() -> [String]? {
        ready.wait()
        return try? index.recordedFolders()
    }

    /// A skill of the index as the server lists it: paths relative to the skill's folder, the
    /// skill file first, and its other files as resources.
    private static func info(_ summary: SkillSummary) -> SkillInfo {
        let prefix = summary.path == "." ? "" : summary.path + "/"
        var documents = summary.documents.map { String($0.dropFirst(prefix.count)) }
        let skillFile = documents.first { $0 == "SKILL.md" } ?? documents.first { $0 == "skill.md" } ?? "SKILL.md"
        documents.removeAll { $0 == skillFile }
        let resources = SkillFiles.list(summary.folder)
            .filter { ($0.kind == .file || $0.kind == .linkInside) && !$0.path.lowercased().hasSuffix(".md") }
            .map(\.path)
        return SkillInfo(
            name: summary.name, description: summary.description, path: summary.path, skillFile: skillFile,
            documents: [skillFile] + documents, resources: resources, entryCount: summary.entries.values.reduce(0, +))
    }
}
