import Foundation
import SkillParser

/// A skill parsed by ``ParseAhead``, with the content hash of each of its scanned documents
/// (`nil` for one that could not be read).
struct ParsedSkill: Sendable {
    var skill: Skill
    var hashes: [String: String?]
}

/// Parses skills on other threads while the build writes the ones before them: the writer takes
/// them in order, and at most ``ahead`` parsed skills wait to be written, so memory stays bounded
/// whatever the size of the corpus.
final class ParseAhead: @unchecked Sendable {  // `willParse` and `willRead` (test hooks) are not Sendable
    /// How many parsed skills may wait for the writer.
    let ahead: Int
    private let skills: [ScannedSkill]
    private struct State {
        var parsed: [Int: ParsedSkill] = [:]
        var started = 0
        var taken = 0
        var stopped = false
    }
    private let state = LockedCondition(State())
    private let workers = DispatchGroup()
    private let willParse: ((String) -> Void)?
    private let willRead: ((String) -> Void)?

    /// Starts parsing `skills` in order on `threads` threads.
    /// - Parameters:
    ///   - willParse: test hook, called on a worker with a skill's folder before it is parsed.
    ///   - willRead: test hook, called on a worker with a file's path before it is read.
    init(
        _ skills: [ScannedSkill], threads: Int = ProcessInfo.processInfo.activeProcessorCount, ahead: Int = 8,
        willParse: ((String) -> Void)? = nil, willRead: ((String) -> Void)? = nil
    ) {
        self.skills = skills
        self.willParse = willParse
        self.willRead = willRead
        self.ahead = max(ahead, 1)
        guard !skills.isEmpty else { return }
        for _ in 0..<max(1, min(threads, skills.count)) {
            workers.enter()
            let thread = Thread { [self] in
                work()
                workers.leave()
            }
            // A main thread's stack, as the parser had when the build parsed on the caller's thread.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    private func work() {
        while true {
            let next = state.withLock(
                waitingUntil: { $0.stopped || $0.started >= skills.count || $0.started - $0.taken < ahead },
                then: { state -> Int? in
                    if state.stopped || state.started >= skills.count { return nil }
                    defer { state.started += 1 }
                    return state.started
                })
            guard let index = next else { return }
            let result = Self.parse(skills[index], willParse: willParse, willRead: willRead)
            state.withLock(wake: .all) { $0.parsed[index] = result }
        }
    }

    /// Parses `scanned` (as `name`, else under its own), recording the content hash of exactly
    /// the bytes parsed: a scanned document the parse did not read (moved away while its folder
    /// was walked, unreadable) has no hash, so the build never stamps it as indexed.
    /// - Parameters:
    ///   - willParse: test hook, called with the folder before it is walked.
    ///   - willRead: test hook, called with a file's path before it is read.
    static func parse(
        _ scanned: ScannedSkill, as name: String? = nil, willParse: ((String) -> Void)? = nil, willRead: ((String) -> Void)? = nil
    ) -> ParsedSkill {
        willParse?(scanned.folder)
        var read: [String: String] = [:]
        let skill = SkillLoader.load(folder: URL(fileURLWithPath: scanned.folder), root: URL(fileURLWithPath: scanned.root), as: name) {
            willRead?($0.path)
            let data = try Data(contentsOf: $0)
            read[$0.path] = Scanner.hash(data)
            return data
        }
        var hashes: [String: String?] = [:]
        for document in scanned.documents { hashes[document.file] = read[document.file] }
        return ParsedSkill(skill: skill, hashes: hashes)
    }

    /// The skill at `index` of the list given, once parsed; call with 0, 1, 2… in turn.
    func take(_ index: Int) -> ParsedSkill {
        state.withLock(
            waitingUntil: { $0.parsed[index] != nil }, wake: .all,
            then: { state in
                state.taken = index + 1
                return state.parsed.removeValue(forKey: index)!
            })
    }

    /// Stops the workers after the skills they are parsing, and waits for them.
    func stop() {
        state.withLock(wake: .all) { $0.stopped = true }
        workers.wait()
    }
}
