import Foundation

/// Sentence vectors by the hash of the text embedded: one SQLite file per user and model
/// (`${XDG_CACHE_HOME:-~/.cache}/skill/vectors-MODEL.sqlite`), shared by every index and root, so
/// an entry found in three roots, or unchanged by a rebuild, is embedded once.
///
/// Each ``store(_:)`` is one transaction of its own, never the index's: a build interrupted at
/// any moment keeps every batch stored before.
final class VectorCache {
    private let db: Database
    let dimension: Int

    /// The cache file of `model` in `folder`.
    static func url(in folder: URL, model: String) -> URL {
        folder.appendingPathComponent("vectors-\(model).sqlite")
    }

    /// Opens (or creates) the cache at `url` for vectors of `dimension` floats.
    /// - Throws: ``IndexError/unwritable(_:_:)`` when the file or its folder cannot be made.
    init(url: URL, dimension: Int) throws {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            db = try Database(path: url.path)
            try db.execute(
                """
                PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
                CREATE TABLE IF NOT EXISTS vectors(key INTEGER PRIMARY KEY, vector BLOB NOT NULL);
                """)
        } catch let error as SQLiteError {
            throw IndexError.unwritable(url.path, error.message)
        }
        self.dimension = dimension
    }

    deinit { db.close() }

    /// The key of a text to embed: its 64-bit FNV-1a with the token limit it was cut at.
    static func key(of text: String, maxTokens: Int) -> Int64 {
        Int64(bitPattern: FNV1a.hash(Data("\(maxTokens)\n\(text)".utf8)))
    }

    /// The stored vectors among `keys`.
    func vectors(for keys: [Int64]) throws -> [Int64: [Float]] {
        var found: [Int64: [Float]] = [:]
        // Bound parameters in chunks under SQLite's limit of 32,766.
        for start in stride(from: 0, to: keys.count, by: 4_096) {
            let chunk = Array(keys[start..<min(start + 4_096, keys.count)])
            let sql = "SELECT key, vector FROM vectors WHERE key IN (\(chunk.map { _ in "?" }.joined(separator: ",")))"
            for (key, vector) in try db.query(sql, chunk.map { .int($0) }, { ($0.int(0), $0.floats(1)) })
            where vector.count == dimension {
                found[key] = vector
            }
        }
        return found
    }

    /// Stores `vectors` by key, in one transaction.
    func store(_ vectors: [(key: Int64, vector: [Float])]) throws {
        try db.transaction {
            for (key, vector) in vectors {
                let bytes = vector.withUnsafeBytes { Array($0) }
                try db.run("INSERT OR REPLACE INTO vectors(key, vector) VALUES (?, ?)", [.int(key), .blob(bytes)])
            }
        }
    }
}
