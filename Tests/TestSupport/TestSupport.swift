import Foundation

/// The package's root folder.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The shared corpus beside the checkout (`../shared/corpus`), which some checkouts lack.
public let corpus = packageRoot.appendingPathComponent("../shared/corpus").standardizedFileURL

/// Whether ``corpus`` is there (tests that read it are skipped otherwise).
public let corpusPresent = FileManager.default.fileExists(atPath: corpus.path)

/// A temporary folder removed when the value is released.
public final class TemporaryFolder: Sendable {
    /// The folder, created by `init`.
    public let url: URL

    /// Creates a fresh folder in the system's temporary folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("skill-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `data` to `path` inside the folder, creating folders on the way.
    @discardableResult
    public func write(_ path: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    /// Writes `text` as UTF-8 to `path` inside the folder, creating folders on the way.
    @discardableResult
    public func write(_ path: String, _ text: String) throws -> URL {
        try write(path, Data(text.utf8))
    }

    /// Writes `text` as UTF-8 to `path` inside the folder, creating folders on the way.
    @discardableResult
    public func write(_ text: String, to path: String) throws -> URL {
        try write(path, Data(text.utf8))
    }
}
