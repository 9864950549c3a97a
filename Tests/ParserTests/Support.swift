import Foundation
import SkillParser
import Testing

/// Paths the tests read: the package root, its fixtures and the shared corpus beside it.
enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Tests/ParserTests/Fixtures")
    static let corpus = packageRoot.appendingPathComponent("../shared/corpus").standardizedFileURL
}

extension Trait where Self == ConditionTrait {
    /// Skips a test that reads ../shared/corpus when the checkout has none beside it.
    static var needsCorpus: Self {
        .enabled(if: FileManager.default.fileExists(atPath: Paths.corpus.path), "needs ../shared/corpus, absent beside this checkout")
    }
}

/// A temporary folder removed when the value is released.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("skill-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `data` to `path` inside the folder, creating folders on the way.
    @discardableResult
    func write(_ path: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    @discardableResult
    func write(_ path: String, _ text: String) throws -> URL {
        try write(path, Data(text.utf8))
    }
}

/// Parses the one skill in `folder` as if found under its parent folder.
func loadSkill(_ folder: URL) -> Skill {
    SkillLoader.load(folder: folder, root: folder.deletingLastPathComponent())
}
