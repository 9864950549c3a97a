import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole file mapped read-only into memory, unmapped when the last reference goes.
///
/// `@unchecked Sendable`: the mapping is never written after `init`, so any thread may read it.
final class MappedFile: @unchecked Sendable {
    /// The first byte of the mapping (page-aligned).
    let base: UnsafeRawPointer
    /// The file's size in bytes.
    let size: Int

    /// Maps the file at `path`.
    /// - Throws: `EmbeddingError.missingModel` when there is no file, `.unreadableModel` when it
    ///   cannot be opened or mapped, `.truncatedModel` when it is empty.
    init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw EmbeddingError.missingModel(path: path) }
            throw EmbeddingError.unreadableModel(path: path, reason: String(cString: strerror(code)))
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw EmbeddingError.unreadableModel(path: path, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw EmbeddingError.unreadableModel(path: path, reason: "not a regular file")
        }
        let size = Int(status.st_size)
        guard size > 0 else { throw EmbeddingError.truncatedModel(path: path, size: 0, expected: ModelFile.preambleSize) }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw EmbeddingError.unreadableModel(path: path, reason: String(cString: strerror(errno)))
        }
        base = UnsafeRawPointer(mapped)
        self.size = size
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), size)
    }
}
