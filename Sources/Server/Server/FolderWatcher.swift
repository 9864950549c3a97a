import Foundation
import SkillParser

#if canImport(Glibc)
    import Glibc
#endif

/// Tells when anything in a set of folders changes: a file created, deleted, renamed, written
/// or its attributes changed, in any of them (inotify; Linux only, the one place it is used).
/// Reads (and so the server's own `resources/read`) are not changes.
final class FolderWatcher: Sendable {
    #if os(Linux)
        private let fd: Int32
        private struct State {
            var source: (any DispatchSourceRead)?
            /// The watched folders by watch descriptor, and the set of them.
            var byDescriptor: [Int32: String] = [:]
            var watched = Set<String>()
        }
        private let state = Locked(State())
        private static let mask = UInt32(
            IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    #endif

    /// Why a folder cannot be watched.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A watcher with no folder yet; throws where inotify is unavailable (not Linux, or the
    /// user's inotify instances are used up).
    init() throws {
        #if os(Linux)
            fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { throw Failure(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        #else
            throw Failure(description: "folder watching is implemented with inotify, on Linux only")
        #endif
    }

    deinit { stop() }

    /// How many folders are watched.
    var count: Int {
        #if os(Linux)
            return state.withLock { $0.watched.count }
        #else
            return 0
        #endif
    }

    /// Watches the folders not watched yet; returns how many were added. A folder that no
    /// longer exists is skipped (the next refresh forgets it).
    /// - Throws: ``Failure`` when the kernel refuses a watch for another reason (above all the
    ///   limit `fs.inotify.max_user_watches`).
    func watch(_ folders: [String]) throws -> Int {
        #if os(Linux)
            return try state.withLock { state in
                var added = 0
                for folder in folders where !state.watched.contains(folder) {
                    let wd = inotify_add_watch(fd, folder, Self.mask)
                    if wd < 0 {
                        if errno == ENOENT || errno == ENOTDIR { continue }
                        throw Failure(
                            description: "watching \(folder): \(String(cString: strerror(errno)))"
                                + (errno == ENOSPC ? " (the limit fs.inotify.max_user_watches is reached)" : ""))
                    }
                    state.byDescriptor[wd] = folder
                    state.watched.insert(folder)
                    added += 1
                }
                return added
            }
        #else
            return 0
        #endif
    }

    /// Calls `changed` on `queue` after each batch of events read (a folder gone stops being
    /// watched; watch it again when it comes back).
    func start(queue: DispatchQueue, changed: @escaping @Sendable () -> Void) {
        #if os(Linux)
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [weak self] in
                if self?.drain() == true { changed() }
            }
            source.setCancelHandler { [fd] in close(fd) }
            state.withLock { $0.source = source }
            source.resume()
        #endif
    }

    /// Stops watching and closes the descriptor.
    func stop() {
        #if os(Linux)
            let source = state.withLock { state in
                defer { state.source = nil }
                return state.source
            }
            source?.cancel()
        #endif
    }

    #if os(Linux)
        /// Reads every pending event; `true` when there was any.
        private func drain() -> Bool {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var any = false
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 { return any }
                any = true
                buffer.withUnsafeBytes { bytes in
                    var offset = 0
                    let header = MemoryLayout<inotify_event>.size
                    while offset + header <= n {
                        let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                        let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                        let length = bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)
                        if mask & UInt32(IN_MOVE_SELF) != 0 {
                            // The watch would follow the folder to its new place: a folder made
                            // at the old path must be watched anew.
                            inotify_rm_watch(fd, wd)
                            forget(wd)
                        } else if mask & UInt32(IN_IGNORED) != 0 {
                            forget(wd)
                        }
                        offset += header + Int(length)
                    }
                }
            }
        }

        /// A watch the kernel removed (its folder deleted or moved away).
        private func forget(_ wd: Int32) {
            state.withLock { state in
                if let folder = state.byDescriptor.removeValue(forKey: wd) { state.watched.remove(folder) }
            }
        }
    #endif
}
