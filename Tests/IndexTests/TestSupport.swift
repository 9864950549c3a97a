import Foundation

@testable import SkillIndex

/// A temporary folder of its own for one test: skills copied from the fixtures, an index path,
/// and HOME / XDG_CACHE_HOME / SKILL_PATH values that point inside it.
final class Sandbox: @unchecked Sendable {
    let folder: URL
    let skills: URL
    let indexURL: URL

    init(fixtures: String? = "skills") throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("skill-index-tests-\(UUID().uuidString)", isDirectory: true)
        skills = folder.appendingPathComponent("skills", isDirectory: true)
        indexURL = folder.appendingPathComponent("cache/index.sqlite")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let fixtures {
            try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(fixtures), to: skills)
        } else {
            try FileManager.default.createDirectory(at: skills, withIntermediateDirectories: true)
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    static var fixtures: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures", isDirectory: true)
    }

    /// The environment a hermetic test passes to ``IndexConfiguration/resolve``.
    var environment: [String: String] {
        [
            "HOME": folder.appendingPathComponent("home").path,
            "XDG_CACHE_HOME": folder.appendingPathComponent("xdg").path,
            "SKILL_PATH": skills.path,
        ]
    }

    func index() -> SkillIndex {
        SkillIndex(roots: [skills], indexURL: indexURL)
    }

    func write(_ text: String, to path: String) throws {
        let url = skills.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        // A new mtime even when the file system's clock granularity is coarse.
        try bumpModificationDate(path)
    }

    func bumpModificationDate(_ path: String) throws {
        let url = skills.appendingPathComponent(path)
        let old = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date ?? Date()
        try FileManager.default.setAttributes([.modificationDate: old.addingTimeInterval(5)], ofItemAtPath: url.path)
    }
}
