import CSQLite
import Foundation

// The only file that imports CSQLite: a small owner of a connection and its prepared statements.
// Every C object is freed in `deinit` or `defer`; nothing C escapes this file.

/// A failure reported by SQLite, with its message and the statement that failed.
public struct SQLiteError: Error, LocalizedError, Sendable {
    /// SQLite's primary result code (`SQLITE_BUSY` = 5, `SQLITE_CORRUPT` = 11, …).
    public var code: Int32
    public var message: String

    public var errorDescription: String? { message }

    /// Whether another process holds the index (a lock timed out).
    var isBusy: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }
    /// Whether the file or its folder cannot be written (it can still be read).
    var isReadOnly: Bool { code & 0xff == SQLITE_READONLY || code & 0xff == SQLITE_CANTOPEN }
    /// Whether a write failed for want of room or of a working disk: the transaction is rolled
    /// back and the file holds the last committed index.
    var isWriteFailure: Bool { code & 0xff == SQLITE_FULL || code & 0xff == SQLITE_IOERR }
    /// Whether the file is not a usable database.
    var isCorrupt: Bool { code & 0xff == SQLITE_CORRUPT || code & 0xff == SQLITE_NOTADB }
}

private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A value bound to or read from a statement.
enum SQLValue: Sendable {
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
    case null
}

/// One open database connection. Not thread-safe: its owner serialises calls.
final class Database {
    private var handle: OpaquePointer?
    private var cache: [String: Statement] = [:]
    /// FTS5 tokenizers made on this connection, by their specification.
    private var tokenizers: [String: FTS5Tokenizer] = [:]

    /// Opens (or creates) the database at `path`.
    /// - Parameters:
    ///   - readOnly: open without creating or writing.
    ///   - immutable: read-only, and trusting that no one changes the file meanwhile: SQLite
    ///     then needs no lock and no `-shm` file, so it reads a database in WAL mode whose folder
    ///     cannot be written (a plain read-only open cannot create the `-shm` file there).
    init(path: String, readOnly: Bool = false, immutable: Bool = false, busyTimeout: Int32 = 15_000) throws {
        var flags =
            readOnly || immutable
            ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
            : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        var name = path
        if immutable {
            flags |= SQLITE_OPEN_URI
            name = URL(fileURLWithPath: path).absoluteString + "?immutable=1"
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: "cannot open \(path): \(message)")
        }
        handle = db
        sqlite3_busy_timeout(db, busyTimeout)
        sqlite3_extended_result_codes(db, 1)
        Self.addInflate(db)
    }

    /// `inflate(x)`: the text of a value ``Deflate/Compressor`` compressed, any other value as it
    /// is. The index's long `text` and `code` are stored so, and `fts` reads them through it
    /// (``Schema``), so every connection that may touch `fts` has the function.
    private static func addInflate(_ db: OpaquePointer) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        sqlite3_create_function_v2(
            db, "inflate", 1, flags, nil,
            { context, _, arguments in
                guard let value = arguments?[0] else { return sqlite3_result_null(context) }
                guard sqlite3_value_type(value) == SQLITE_BLOB else { return sqlite3_result_value(context, value) }
                let blob = UnsafeRawBufferPointer(start: sqlite3_value_blob(value), count: Int(sqlite3_value_bytes(value)))
                guard let text = Deflate.text(of: blob) else {
                    sqlite3_result_error(context, "a compressed text does not inflate", -1)
                    return sqlite3_result_error_code(context, SQLITE_CORRUPT)
                }
                text.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { sqlite3_result_text(context, $0.baseAddress, Int32($0.count), transient) }
                }
            }, nil, nil, nil)
    }

    deinit { close() }

    /// Whether the connection cannot write its database (opened read-only, or the file could
    /// only be opened so).
    var isReadOnly: Bool { handle.map { sqlite3_db_readonly($0, "main") == 1 } ?? true }

    /// How long a statement waits for another connection's lock before failing as busy.
    func setBusyTimeout(_ milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Finalises every statement and closes the connection; later calls fail.
    func close() {
        cache.removeAll()
        tokenizers.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    private func error(_ rc: Int32, _ sql: String? = nil) -> SQLiteError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "the database is closed"
        return SQLiteError(code: rc, message: message)
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws {
        guard let handle else { throw error(SQLITE_MISUSE) }
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: rc, message: text)
        }
    }

    /// A prepared statement for `sql`, reused across calls (reset and unbound before it is handed out).
    func prepare(_ sql: String) throws -> Statement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        guard let handle else { throw error(SQLITE_MISUSE) }
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else { throw error(rc, sql) }
        let statement = Statement(raw, database: self)
        cache[sql] = statement
        return statement
    }

    /// Runs `sql` with `values` bound to its parameters in order, ignoring any rows.
    func run(_ sql: String, _ values: [SQLValue] = []) throws {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
        statement.reset()
    }

    /// Rows of `sql`, each read by `read` while the statement is on it.
    func query<T>(_ sql: String, _ values: [SQLValue] = [], _ read: (Statement) throws -> T) throws -> [T] {
        let statement = try prepare(sql)
        try statement.bind(values)
        defer { statement.reset() }
        var rows: [T] = []
        while try statement.step() { rows.append(try read(statement)) }
        return rows
    }

    /// The first column of the first row of `sql` as an integer, or `nil` when there is no row.
    func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> Int64? {
        try query(sql, values) { $0.isNull(0) ? nil : $0.int(0) }.first ?? nil
    }

    /// The first column of the first row of `sql` as text.
    func text(_ sql: String, _ values: [SQLValue] = []) throws -> String? {
        try query(sql, values) { $0.isNull(0) ? nil : $0.text(0) }.first ?? nil
    }

    /// Runs `body` inside one read transaction: its statements share a snapshot and take the
    /// database's read lock once.
    func read<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN")
        defer { try? run("COMMIT") }
        return try body()
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`: all or nothing. The write lock is taken at
    /// once (waiting up to the busy timeout), so two writers never interleave.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The rowid of the last row inserted on this connection.
    var lastInsertRowID: Int64 {
        handle.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// The rows the last statement inserted, changed or deleted (not counting its triggers').
    var changes: Int {
        handle.map { Int(sqlite3_changes($0)) } ?? 0
    }

    /// The tokens of `text` as the FTS5 tokenizer `spec` (e.g. `porter unicode61 remove_diacritics 2`)
    /// gives them to FTS5: a document's text, or with `query` a quoted string of a MATCH expression
    /// (`prefix` for one followed by `*`).
    func tokens(of text: String, tokenizer spec: String, query: Bool = false, prefix: Bool = false) throws -> [FTS5Token] {
        guard let handle else { throw error(SQLITE_MISUSE) }
        let tokenizer: FTS5Tokenizer
        if let made = tokenizers[spec] {
            tokenizer = made
        } else {
            tokenizer = try FTS5Tokenizer(handle, spec: spec)
            tokenizers[spec] = tokenizer
        }
        let flags = query ? FTS5_TOKENIZE_QUERY | (prefix ? FTS5_TOKENIZE_PREFIX : 0) : FTS5_TOKENIZE_DOCUMENT
        return try tokenizer.tokens(of: text, flags: flags)
    }
}

/// A token of FTS5's tokenizer: the term as FTS5 indexes it and its bytes in the UTF-8 text.
struct FTS5Token: Equatable {
    var term: [UInt8]
    /// The offset of its first byte in the text's UTF-8.
    var start: Int
    /// The offset after its last byte.
    var end: Int
}

/// One instance of an FTS5 tokenizer of a connection (found through `fts5_api`), deleted with
/// its ``Database``, before the connection closes.
private final class FTS5Tokenizer {
    private let module: fts5_tokenizer
    private let instance: OpaquePointer

    init(_ db: OpaquePointer, spec: String) throws {
        let failure = SQLiteError(code: SQLITE_ERROR, message: "no FTS5 tokenizer '\(spec)'")
        var api: UnsafeMutablePointer<fts5_api>?
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, nil) == SQLITE_OK else { throw failure }
        defer { sqlite3_finalize(statement) }
        withUnsafeMutablePointer(to: &api) { pointer in
            if sqlite3_bind_pointer(statement, 1, pointer, "fts5_api_ptr", nil) == SQLITE_OK { _ = sqlite3_step(statement) }
        }
        let words = spec.split(separator: " ").map(String.init)
        var module = fts5_tokenizer()
        var context: UnsafeMutableRawPointer?
        guard let api, let find = api.pointee.xFindTokenizer, let name = words.first,
            find(api, name, &context, &module) == SQLITE_OK, let create = module.xCreate
        else { throw failure }
        let arguments = words.dropFirst().map { strdup($0) }
        defer { for argument in arguments { free(argument) } }
        var made: OpaquePointer?
        var pointers = arguments.map { UnsafePointer<CChar>($0) }
        let rc = pointers.withUnsafeMutableBufferPointer { create(context, $0.baseAddress, Int32($0.count), &made) }
        guard rc == SQLITE_OK, let made else { throw failure }
        self.module = module
        instance = made
    }

    deinit { module.xDelete?(instance) }

    private final class Collector {
        var tokens: [FTS5Token] = []
    }

    func tokens(of text: String, flags: Int32) throws -> [FTS5Token] {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, let tokenize = module.xTokenize else { return [] }
        let collector = Collector()
        let rc = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                tokenize(instance, Unmanaged.passUnretained(collector).toOpaque(), flags, text.baseAddress, Int32(text.count)) {
                    context, _, token, count, start, end in
                    guard let context, let token else { return SQLITE_OK }
                    let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                    let term = UnsafeRawBufferPointer(start: token, count: Int(count))
                    collector.tokens.append(FTS5Token(term: Array(term), start: Int(start), end: Int(end)))
                    return SQLITE_OK
                }
            }
        }
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: "the FTS5 tokenizer failed (\(rc))") }
        return collector.tokens
    }
}

/// A prepared statement owned by its ``Database``.
final class Statement {
    private var raw: OpaquePointer?
    private unowned let database: Database

    fileprivate init(_ raw: OpaquePointer, database: Database) {
        self.raw = raw
        self.database = database
    }

    deinit { sqlite3_finalize(raw) }

    func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    func bind(_ values: [SQLValue]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .int(let v): rc = sqlite3_bind_int64(raw, index, v)
            case .double(let v): rc = sqlite3_bind_double(raw, index, v)
            case .text(let v): rc = sqlite3_bind_text(raw, index, v, -1, transient)
            case .blob(let v): rc = v.withUnsafeBytes { sqlite3_bind_blob(raw, index, $0.baseAddress, Int32($0.count), transient) }
            case .null: rc = sqlite3_bind_null(raw, index)
            }
            guard rc == SQLITE_OK else { throw failure(rc) }
        }
    }

    /// Moves to the next row: `true` while there is one.
    func step() throws -> Bool {
        let rc = sqlite3_step(raw)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = failure(rc)
            sqlite3_reset(raw)
            throw error
        }
    }

    private func failure(_ rc: Int32) -> SQLiteError {
        let db = sqlite3_db_handle(raw)
        return SQLiteError(code: rc, message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "SQLite error \(rc)")
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_NULL }
    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(raw, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(raw, column) }

    /// A blob column as 32-bit floats in the machine's byte order (a stored vector); empty when
    /// the column is NULL or not a whole number of floats.
    func floats(_ column: Int32) -> [Float] {
        let count = Int(sqlite3_column_bytes(raw, column))
        guard let bytes = sqlite3_column_blob(raw, column), count % MemoryLayout<Float>.size == 0 else { return [] }
        return [Float](unsafeUninitializedCapacity: count / MemoryLayout<Float>.size) { buffer, initialized in
            memcpy(buffer.baseAddress!, bytes, count)
            initialized = buffer.count
        }
    }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(raw, column) else { return "" }
        let count = Int(sqlite3_column_bytes(raw, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
