import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few file-system calls that must be atomic.
enum FileSystem {
    struct Failure: LocalizedError {
        let errorDescription: String?
    }

    /// `rename(2)`: replaces a file at `destination` atomically.
    static func rename(_ source: URL, to destination: URL) throws {
        if systemRename(source.path, destination.path) != 0 { throw failure() }
    }

    /// Moves `source` to `destination`, failing when `destination` exists (even an empty folder,
    /// which plain `rename(2)` would replace).
    static func renameNoReplace(_ source: URL, to destination: URL) throws {
        #if os(Linux)
            if let renameat2 = renameat2Function {
                if renameat2(AT_FDCWD, source.path, AT_FDCWD, destination.path, renameNoReplaceFlag) == 0 { return }
                if errno != EINVAL && errno != ENOSYS { throw failure() }
            }
        #elseif canImport(Darwin)
            if renamex_np(source.path, destination.path, UInt32(RENAME_EXCL)) == 0 { return }
            throw failure()
        #endif
        if FileManager.default.fileExists(atPath: destination.path) || isSymlink(destination) {
            throw Failure(errorDescription: "\(destination.path) already exists")
        }
        try rename(source, to: destination)
    }

    /// Swaps `a` and `b` atomically (Linux `renameat2(RENAME_EXCHANGE)`, macOS `renamex_np(RENAME_SWAP)`);
    /// where the system cannot, moves `b` aside into `aside`, then `a` into `b`, and back on failure.
    /// Either way `b` is never missing for longer than between two renames.
    /// - Returns: where the old `b` now is.
    static func exchange(_ a: URL, _ b: URL, aside: URL) throws -> URL {
        #if os(Linux)
            if let renameat2 = renameat2Function {
                if renameat2(AT_FDCWD, a.path, AT_FDCWD, b.path, renameExchangeFlag) == 0 { return a }
                if errno != EINVAL && errno != ENOSYS { throw failure() }
            }
        #elseif canImport(Darwin)
            if renamex_np(a.path, b.path, UInt32(RENAME_SWAP)) == 0 { return a }
        #endif
        try rename(b, to: aside)
        do {
            try rename(a, to: b)
        } catch {
            try? rename(aside, to: b)
            throw error
        }
        return aside
    }

    static func isSymlink(_ url: URL) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType == .typeSymbolicLink
    }

    private static func failure() -> Failure {
        Failure(errorDescription: String(cString: strerror(errno)))
    }

    #if os(Linux)
        private typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        /// glibc ≥ 2.28 has `renameat2`, but Swift's Glibc module does not export it: look it up.
        private static let renameat2Function: Renameat2? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
            return unsafeBitCast(symbol, to: Renameat2.self)
        }()
        /// `renameat2` flags from `<linux/fs.h>`, which Swift's Glibc module does not export either.
        private static let renameNoReplaceFlag: UInt32 = 1
        private static let renameExchangeFlag: UInt32 = 2
    #endif
}

#if canImport(Glibc)
    private let systemRename = Glibc.rename
#elseif canImport(Darwin)
    private let systemRename = Darwin.rename
#endif
