import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Size and change time of a file, from one `stat` call: what the index compares to tell
/// whether a file or folder changed.
public struct FileStamp: Hashable, Sendable {
    /// Size in bytes.
    public var size: Int64
    /// The modification and status-change times (nanoseconds since 1970) added up: compared only
    /// for equality, it changes with either, so `chmod` (which changes only the latter) makes a
    /// document be read again.
    public var mtime: Int64
    /// Whether it is a folder.
    public var isDirectory: Bool
    /// The inode number (tells a replaced file from the same file).
    public var inode: UInt64
    /// Whether any execute bit is set (not `access(X_OK)`, which is true for root on any such file
    /// and depends on who runs it).
    public var isExecutable: Bool

    init(_ st: stat) {
        #if canImport(Darwin)
            let modified = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
            let changed = Int64(st.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(st.st_ctimespec.tv_nsec)
        #else
            let modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
            let changed = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        #endif
        mtime = modified &+ changed
        size = Int64(st.st_size)
        isDirectory = (st.st_mode & S_IFMT) == S_IFDIR
        inode = UInt64(st.st_ino)
        isExecutable = st.st_mode & 0o111 != 0
    }

    /// The stamp of `path` (symbolic links followed), or `nil` when it does not exist.
    public static func of(_ path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileStamp(st)
    }
}
