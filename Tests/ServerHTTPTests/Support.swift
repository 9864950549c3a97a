import Foundation
import SkillIndex
import SkillParser
import SkillServer

/// The fixture skills of the server's tests.
let fixtureRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../ServerTests/Fixtures/skills").standardizedFileURL

/// A knowledge base over `roots`: a real SQLite index in a temporary folder.
func indexedKnowledge(_ roots: [URL] = [fixtureRoot]) -> IndexKnowledgeBase {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skill-http-index-\(UUID().uuidString)")
    return IndexKnowledgeBase(index: SkillIndex(roots: roots, indexURL: folder.appendingPathComponent("index.sqlite")))
}

/// A knowledge base whose `search` waits until the test opens the gate (and signals `entered`
/// when one starts waiting).
final class GatedKnowledgeBase: KnowledgeBase, @unchecked Sendable {
    let base = indexedKnowledge()
    let gate = DispatchSemaphore(value: 0)
    let entered = DispatchSemaphore(value: 0)

    func search(_ query: KnowledgeQuery) throws -> SearchResults {
        entered.signal()
        gate.wait()
        return try base.search(query)
    }
    func entry(id: String) -> Entry? { base.entry(id: id) }
    func nearIDs(to id: String, limit: Int) -> [String] { base.nearIDs(to: id, limit: limit) }
    func skills() -> [SkillInfo] { base.skills() }
    func skill(named name: String) -> SkillInfo? { base.skill(named: name) }
    func file(skill: String, path: String) -> Data? { base.file(skill: skill, path: path) }
    func refresh() -> Bool { false }
}

/// A flag set once, read from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
