import Foundation

/// Brings the knowledge up to date when the skills change, off the reply path: watches every
/// folder the index recorded (inotify, on Linux) and checks once a burst of changes has settled;
/// where watching is impossible (not Linux, the watch limit reached) or not wanted (`--poll`),
/// checks every `pollInterval` seconds instead, as the server always did before.
public final class ChangeMonitor: @unchecked Sendable {  // its vars are read and written on `queue`
    private let knowledge: any KnowledgeBase
    private let pollInterval: Double
    private let watch: Bool
    private let log: ServerLog
    private let changed: @Sendable () -> Void
    /// Every check, event and timer runs here, one at a time.
    private let queue = DispatchQueue(label: "skill.serve.freshness")
    private var watcher: FolderWatcher?
    private var timer: (any DispatchSourceTimer)?
    private var checkPending = false
    private var stopped = false

    /// How long after the first event of a burst the check runs: an editor's save is several
    /// events (write, rename, attributes), and they are checked once.
    static let settleSeconds = 0.2

    /// A monitor of `knowledge`; nothing happens until ``start()``.
    /// - Parameters:
    ///   - pollInterval: seconds between checks when the folders are not watched.
    ///   - watch: watch the folders when possible; `false` polls.
    ///   - changed: called (on the monitor's queue) after a check that changed the knowledge.
    public init(
        knowledge: any KnowledgeBase, pollInterval: Double, watch: Bool = true, log: ServerLog, changed: @escaping @Sendable () -> Void
    ) {
        self.knowledge = knowledge
        self.pollInterval = pollInterval
        self.watch = watch
        self.log = log
        self.changed = changed
    }

    /// Starts watching (or polling) once the knowledge base's first refresh is done.
    public func start() {
        queue.async { [self] in
            guard !stopped else { return }
            guard watch else { return poll(because: nil) }
            guard let folders = knowledge.watchedFolders() else { return poll(because: "no folders to watch") }
            do {
                let watcher = try FolderWatcher()
                self.watcher = watcher
                _ = try watcher.watch(folders)
                watcher.start(queue: queue) { [weak self] in self?.scheduleCheck() }
                log.info("watching \(watcher.count) folders for changes (inotify)")
                // What changed between the first refresh and the watches.
                check()
            } catch {
                poll(because: "\(error)")
            }
        }
    }

    /// Stops watching and polling; safe from any thread, including the monitor's own.
    public func stop() {
        queue.async { [self] in
            stopped = true
            watcher?.stop()
            watcher = nil
            timer?.cancel()
            timer = nil
        }
    }

    private func poll(because reason: String?) {
        watcher?.stop()
        watcher = nil
        let every = "checking for changes every \(String(format: "%g", pollInterval)) s"
        if let reason { log.warning("cannot watch the skills' folders (\(reason)): \(every)") } else { log.info(every) }
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now() + pollInterval, repeating: pollInterval, leeway: .milliseconds(100))
        t.setEventHandler { [weak self] in self?.check() }
        t.resume()
        timer = t
    }

    private func scheduleCheck() {
        guard !checkPending, !stopped else { return }
        checkPending = true
        queue.asyncAfter(deadline: .now() + Self.settleSeconds) { [weak self] in
            guard let self else { return }
            checkPending = false
            check()
        }
    }

    private func check() {
        guard !stopped else { return }
        if knowledge.refresh() { changed() }
        guard let watcher, let folders = knowledge.watchedFolders() else { return }
        do {
            // A new folder: watch it, then look again for what was written in it before.
            if try watcher.watch(folders) > 0 { scheduleCheck() }
        } catch {
            poll(because: "\(error)")
        }
    }
}
