import Foundation
import SkillParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folders `install` unpacks into and `uninstall` moves a skill aside into, inside the skills
/// folder (one file system, so the final step is a rename). Their names start with
/// `WalkRules.stagingPrefixes[0]` and carry the owning process's id, so:
/// - no scanner ever looks into them (``WalkRules/skills``);
/// - Ctrl-C, SIGTERM and SIGHUP remove them (after ``SkillInstaller/removeStagingOnSignals()``);
/// - the next install or uninstall sweeps those whose process is gone (a `kill -9`).
enum StagingArea {
    /// The live staging folders, and the signal sources once installed.
    private static let state = Locked((live: Set<URL>(), sources: [any DispatchSourceSignal]()))

    /// A new staging folder's URL in `folder` (not created), registered for removal on signals.
    static func make(in folder: URL, purpose: String) -> URL {
        let url = folder.appendingPathComponent("\(WalkRules.stagingPrefixes[0])\(getpid())-\(purpose)-\(UUID().uuidString)")
        state.withLock { _ = $0.live.insert(url) }
        return url
    }

    /// Removes a staging folder and forgets it.
    static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
        state.withLock { _ = $0.live.remove(url) }
    }

    /// Removes the staging folders in `folder` left by processes that no longer run.
    static func sweep(_ folder: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names {
            guard let prefix = WalkRules.stagingPrefixes.first(where: { name.hasPrefix($0) }) else { continue }
            if prefix == WalkRules.stagingPrefixes[0], let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }),
                pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
            {
                continue
            }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// On SIGINT, SIGTERM and SIGHUP: remove the live staging folders, then die of the signal.
    static func removeOnSignals() {
        state.withLock { state in
            guard state.sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM, SIGHUP] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    let folders = Self.state.withLock { $0.live }
                    for url in folders { try? FileManager.default.removeItem(at: url) }
                    signal(number, SIG_DFL)
                    raise(number)
                }
                source.resume()
                state.sources.append(source)
            }
        }
    }
}
