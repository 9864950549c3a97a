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
final class ParseAhead: @unchecked Sendable {
    /// How many parsed skills may wait for the writer.
    let ahead: Int
    private let skills: [ScannedSkill]
    private let condition = NSCondition()
    private var parsed: [Int: ParsedSkill] = [:]
    private var started = 0
    private var taken = 0
    private var stopped = false
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
            condition.lock()
            while !stopped, started < skills.count, started - taken >= ahead { condition.wait() }
            if stopped || started >= skills.count {
                condition.unlock()
                return
            }
            let index = started
            started += 1
            condition.unlock()
            let result = Self.parse(skills[index], willParse: willParse, willRead: willRead)
            condition.lock()
            parsed[index] = result
            condition.broadcast()
            condition.unlock()
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
        condition.lock()
        defer { condition.unlock() }
        while parsed[index] == nil { condition.wait() }
        taken = index + 1
        condition.broadcast()
        return parsed.removeValue(forKey: index)!
    }

    /// Stops the workers after the skills they are parsing, and waits for them.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        workers.wait()
    }
}
