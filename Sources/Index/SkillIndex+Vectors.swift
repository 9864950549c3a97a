import Foundation
import SkillEmbedding
import SkillParser

/// Where an embedding pass stands, for a progress line.
public struct EmbeddingProgress: Sendable {
    /// Texts embedded so far in this pass, and how many it embeds in all.
    public var done: Int
    public var total: Int
    /// Seconds since the pass started embedding.
    public var seconds: Double
}

/// What an embedding pass did.
public struct EmbeddingReport: Codable, Hashable, Sendable {
    /// The model's name; `nil` when no model is set up (nothing was embedded).
    public var model: String?
    /// Entries the vector stage covers after the pass, of the entries that get a vector.
    public var entriesWithVectors = 0
    public var entriesToEmbed = 0
    /// Texts embedded by this pass; the others came from the user's vector cache.
    public var embedded = 0
    /// Texts left without a vector because the pass had a budget (`skill build` embeds them).
    public var deferred = 0
    /// Seconds spent embedding.
    public var seconds = 0.0
}

/// Whether a search can use the vector stage, and if not, why.
public enum SemanticStatus: Hashable, Sendable {
    /// The model loads; `entriesWithVectors` of `entries` have a vector.
    case ready(model: String, entriesWithVectors: Int, entries: Int)
    /// No model file is set up: search is lexical.
    case noModel
    /// A model file is there but cannot be used (the message says why and what to do).
    case unusable(String)
}

/// The vector side of an index: its encoder, loaded once, and its table, mapped again when
/// rewritten. It has a lock of its own, not the index's: a search holding the index's lock asks
/// it whether a word is in the encoder's vocabulary.
final class SemanticState: Sendable {
    private struct State {
        var loaded = false
        var encoder: SentenceEncoder?
        var loadError: String?
        var table: VectorTable?
    }
    private let state = Locked(State())

    /// The encoder of the model at `url`, loaded on first use; `nil` without a model or when it
    /// fails to load (``loadFailure`` says why).
    func encoder(_ url: URL?) -> SentenceEncoder? {
        state.withLock { state in
            if !state.loaded, let url {
                state.loaded = true
                do {
                    state.encoder = try SentenceEncoder(contentsOf: url)
                } catch {
                    state.loadError = "\(url.path): \(error.localizedDescription)"
                }
            }
            return state.encoder
        }
    }

    /// Why the model did not load.
    var loadFailure: String? {
        state.withLock { $0.loadError }
    }

    /// The table at `url`, mapped again when the file changed; `nil` when there is none.
    func table(at url: URL, dimension: Int) -> VectorTable? {
        state.withLock { state in
            let stamp = FileStamp.of(url.path)
            if let table = state.table, table.stamp == stamp { return table }
            state.table = stamp == nil ? nil : VectorTable(contentsOf: url, dimension: dimension)
            return state.table
        }
    }
}

extension SkillIndex {
    /// The encoder, loaded on first use; `nil` without a model (or with one that fails to load:
    /// ``semanticStatus()`` says why).
    func encoder() -> SentenceEncoder? {
        semantic.encoder(configuration.modelURL)
    }

    /// Whether a model is set up but the index has no vector table yet (``embed(budget:progress:)``
    /// writes it).
    public var lacksVectorTable: Bool {
        configuration.modelURL != nil && !FileManager.default.fileExists(atPath: VectorTable.url(besideIndex: configuration.indexURL).path)
    }

    /// Whether searches use vectors: the model, and how many entries have one.
    public func semanticStatus() throws -> SemanticStatus {
        guard configuration.modelURL != nil else { return .noModel }
        guard let encoder = encoder() else { return .unusable(semantic.loadFailure ?? "the model cannot be read") }
        let entries = try locked { try database().query("SELECT id FROM entries") { $0.text(0) } }.filter(Self.getsVector).count
        let covered = vectorTable(dimension: encoder.dimension)?.count ?? 0
        return .ready(model: encoder.modelName, entriesWithVectors: min(covered, entries), entries: entries)
    }

    /// Whether the entry `id` gets a vector of its own: every entry but those inside a section
    /// without a heading of their own (`…~example-1`), which the vector stage finds through their
    /// section (one place in the results: ``EntryPlace``).
    static func getsVector(_ id: String) -> Bool {
        !EntryPlace.isPartOfSection(id)
    }

    /// Embeds the entries that have no vector yet and writes the index's ``VectorTable``.
    ///
    /// Vectors come from the user's ``VectorCache`` when an identical text was embedded before (in
    /// any index); the rest are embedded in batches on every core, each batch stored as soon as it
    /// is done, so an interrupted pass loses at most the batches in flight. The lexical index is
    /// not written, nor locked while embedding.
    /// - Parameters:
    ///   - budget: embed nothing when more than this many texts are missing (a read command's
    ///     refresh: `skill build` embeds them); `nil` embeds all.
    ///   - workers: the threads that embed (all cores by default; a server keeps one for answers).
    ///   - shouldStop: asked before each batch; `true` ends the pass there (a server stopping),
    ///     keeping what was stored and leaving the table as it was.
    ///   - progress: called after each batch.
    /// - Returns: what was done; `model` is `nil` when no model is set up.
    /// - Throws: ``IndexError`` when the index or the vector cache cannot be read or written.
    @discardableResult
    public func embed(
        budget: Int? = nil, workers: Int = ProcessInfo.processInfo.activeProcessorCount, shouldStop: () -> Bool = { false },
        progress: ((EmbeddingProgress) -> Void)? = nil
    ) throws -> EmbeddingReport {
        guard let encoder = encoder() else { return EmbeddingReport() }
        let maxTokens = Searcher.Ranking.current.vectorTokens
        struct Item {
            var rowid: Int64
            var hash: UInt64
            var key: Int64
        }
        var texts: [Int64: String] = [:]
        let items = try locked {
            try database().query(
                "SELECT rowid, hash, breadcrumb, title, substr(inflate(text), 1, ?), id FROM entries ORDER BY rowid",
                [.int(Int64(maxTokens * 12))]
            ) { row -> Item? in
                guard Self.getsVector(row.text(5)) else { return nil }
                let text = Self.textToEmbed(breadcrumb: row.text(2), title: row.text(3), text: row.text(4))
                let key = VectorCache.key(of: text, maxTokens: maxTokens)
                texts[key] = text
                return Item(rowid: row.int(0), hash: UInt64(row.text(1), radix: 16) ?? 0, key: key)
            }
        }.compactMap { $0 }
        let cache = try VectorCache(
            url: VectorCache.url(in: configuration.vectorCacheFolder, model: encoder.modelName), dimension: encoder.dimension)
        var vectors = try cache.vectors(for: Array(texts.keys))
        let missing = texts.keys.filter { vectors[$0] == nil }.sorted()
        var report = EmbeddingReport(model: encoder.modelName, entriesToEmbed: items.count)
        if let budget, missing.count > budget {
            report.deferred = missing.count
        } else if !missing.isEmpty {
            let start = Date()
            let workers = max(1, workers)
            let batch = Self.embeddingBatch * workers
            for first in stride(from: 0, to: missing.count, by: batch) {
                if shouldStop() {
                    report.seconds = Date().timeIntervalSince(start)
                    report.deferred = missing.count - report.embedded
                    return report
                }
                let keys = Array(missing[first..<min(first + batch, missing.count)])
                let embedded = Self.embedInParallel(keys.map { texts[$0] ?? "" }, workers: workers, encoder: encoder, maxTokens: maxTokens)
                try cache.store(Array(zip(keys, embedded).map { (key: $0, vector: $1) }))
                for (key, vector) in zip(keys, embedded) { vectors[key] = vector }
                report.embedded += keys.count
                progress?(EmbeddingProgress(done: report.embedded, total: missing.count, seconds: Date().timeIntervalSince(start)))
            }
            report.seconds = Date().timeIntervalSince(start)
        }
        let rows = items.compactMap { item in vectors[item.key].map { VectorTable.Row(rowid: item.rowid, hash: item.hash, vector: $0) } }
        report.entriesWithVectors = rows.count
        let tableURL = VectorTable.url(besideIndex: configuration.indexURL)
        let current = vectorTable(dimension: encoder.dimension)
        // An unchanged table is not written again: a read command's refresh costs one comparison.
        if current?.count != rows.count || !(current?.holds(rows) ?? false) {
            try VectorTable.write(rows, dimension: encoder.dimension, to: tableURL)
        }
        return report
    }

    /// Texts per call of the encoder: enough rows for BLAS to run at speed, few enough that an
    /// interruption loses little.
    static let embeddingBatch = 16

    /// What an entry's vector is made of: where it is (its breadcrumb and title) and the opening
    /// of its text, on one line each; the encoder cuts it at its token limit.
    static func textToEmbed(breadcrumb: String, title: String, text: String) -> String {
        let place = breadcrumb.isEmpty ? title : breadcrumb + IndexBuilder.crumbSeparator + title
        return place + "\n" + Searcher.flatten(text)
    }

    /// `texts` embedded by `workers` threads at once, in order.
    private static func embedInParallel(_ texts: [String], workers: Int, encoder: SentenceEncoder, maxTokens: Int) -> [[Float]] {
        let parts = stride(from: 0, to: texts.count, by: max(1, (texts.count + workers - 1) / workers)).map {
            Array(texts[$0..<min($0 + (texts.count + workers - 1) / workers, texts.count)])
        }
        var results = [[[Float]]](repeating: [], count: parts.count)
        results.withUnsafeMutableBufferPointer { out in
            // Each worker writes its own slot.
            nonisolated(unsafe) let out = out
            DispatchQueue.concurrentPerform(iterations: parts.count) { i in
                out[i] = encoder.embed(parts[i], maxTokens: maxTokens)
            }
        }
        return results.flatMap { $0 }
    }

    /// The index's vector table, mapped again when the file changed; `nil` when there is none.
    func vectorTable(dimension: Int) -> VectorTable? {
        semantic.table(at: VectorTable.url(besideIndex: configuration.indexURL), dimension: dimension)
    }

    /// The query's vector and the table to search, when the vector stage can run.
    func vectorQuery(_ text: String) -> VectorQuery? {
        guard let encoder = encoder(), let table = vectorTable(dimension: encoder.dimension), table.count > 0 else { return nil }
        let words = text.split(whereSeparator: \.isWhitespace).filter { word in
            !["kind:", "skill:", "lang:"].contains { word.lowercased().hasPrefix($0) }
        }
        guard !words.isEmpty else { return nil }
        let vector = encoder.embed([words.joined(separator: " ")], maxTokens: Searcher.Ranking.current.vectorTokens)
        guard let first = vector.first else { return nil }
        return VectorQuery(vector: first, table: table)
    }
}

/// Gives a query's ``VectorQuery`` when the vector stage takes part (embedding the query costs
/// milliseconds, so a keyword query never asks); `nil` when there is no model or no table.
typealias VectorSource = () -> VectorQuery?

/// A query's vector and the table of entry vectors it is compared with.
struct VectorQuery {
    var vector: [Float]
    var table: VectorTable
}

extension SentenceEncoder {
    /// Whether `word` (lowercase) is a whole word of the encoder's vocabulary: one token, not
    /// `[UNK]`.
    func isVocabularyWord(_ word: String) -> Bool {
        let ids = tokenIDs(word, maxTokens: 4)
        return ids.count == 3 && ids[1] != unknownTokenID
    }

    /// BERT's `[UNK]`.
    private var unknownTokenID: Int32 { 100 }
}
