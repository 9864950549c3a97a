import Dispatch
import Foundation
import SkillParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The temporary files of builds in progress (`INDEX.tmp-PID-RANDOM`), removed when the process
/// exits or is stopped by SIGINT, SIGTERM or SIGHUP before the build renames its file into place,
/// and swept by a later build when a killed process (SIGKILL, a crash) left them behind.
enum TemporaryIndexFiles {
    private struct State {
        var paths: Set<String> = []
        var signalSources: [DispatchSourceSignal] = []
        var installed = false
    }
    private static let state = Locked(State())

    /// The suffixes SQLite may add beside a database file.
    static let suffixes = ["", "-journal", "-wal", "-shm"]

    /// A new temporary path beside `index`, registered for removal on exit and signals.
    static func make(beside index: String) -> String {
        let path = index + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        state.withLock { state in
            installHandlersOnce(&state)
            state.paths.insert(path)
        }
        return path
    }

    /// Removes `path` (and SQLite's files beside it) and forgets it.
    static func remove(_ path: String) {
        state.withLock { _ = $0.paths.remove(path) }
        for suffix in suffixes { unlink(path + suffix) }
    }

    /// Removes every registered file; called at exit and on a signal.
    static func removeAll() {
        let all = state.withLock { state in
            defer { state.paths.removeAll() }
            return state.paths
        }
        for path in all {
            for suffix in suffixes { unlink(path + suffix) }
        }
    }

    /// Installs, once, an exit handler and handlers for SIGINT, SIGTERM and SIGHUP that remove
    /// the files and then end the process as the signal would have.
    private static func installHandlersOnce(_ state: inout State) {
        guard !state.installed else { return }
        state.installed = true
        atexit { TemporaryIndexFiles.removeAll() }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            // Only where the signal still has its default action: a host that handles it keeps it.
            var old = sigaction()
            guard sigaction(sig, nil, &old) == 0, isDefault(old) else { continue }
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { die(of: sig) }
            source.resume()
            state.signalSources.append(source)
        }
    }

    /// Removes the files, then ends the process by `sig` as its default action would. The lock
    /// is never released: a thread reaching `exit` meanwhile (its build failed when the file went)
    /// waits in the exit handler, so the process ends by the signal, not by that thread's exit code.
    private static func die(of sig: Int32) -> Never {
        state.withLock { state -> Never in
            for path in state.paths {
                for suffix in suffixes { unlink(path + suffix) }
            }
            signal(sig, SIG_DFL)
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, sig)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            raise(sig)
            // Not reached: the default action of SIGINT, SIGTERM and SIGHUP ends the process.
            _exit(128 + sig)
        }
    }

    private static func isDefault(_ action: sigaction) -> Bool {
        #if canImport(Glibc)
            return action.__sigaction_handler.sa_handler == nil
        #else
            return action.__sigaction_u.__sa_handler == nil
        #endif
    }

    /// Removes the temporary files beside `index` whose process is gone (SIGKILL, a crash, a
    /// power cut): `INDEX.tmp-PID-RANDOM` where no process PID runs.
    /// - Returns: the paths removed.
    @discardableResult
    static func sweep(beside index: URL) -> [String] {
        sweep(folder: index.deletingLastPathComponent(), prefix: index.lastPathComponent + ".tmp-")
    }

    /// Removes the temporary index files of dead processes in `folder` whose names start with `prefix`.
    static func sweep(folder: URL, prefix: String = "") -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var removed: [String] = []
        for name in names.sorted() where name.hasPrefix(prefix) {
            guard let pid = ownerPID(name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = folder.appendingPathComponent(name).path
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    /// The PID in a name of the form `….tmp-PID-RANDOM` (with SQLite's suffixes), else `nil`.
    static func ownerPID(_ name: String) -> pid_t? {
        guard let range = name.range(of: ".tmp-", options: .backwards) else { return nil }
        var parts = name[range.upperBound...].split(separator: "-")
        if let last = parts.last, ["journal", "wal", "shm"].contains(last) { parts.removeLast() }
        guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, UInt32(parts[1]) != nil else { return nil }
        return pid
    }
}
