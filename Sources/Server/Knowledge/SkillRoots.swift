import Foundation

/// Where skills are looked for (DESIGN.md section 3, "Roots").
public enum SkillRoots {
    /// `explicit` (`--skills`), else `SKILL_PATH` (colon-separated), else the default folders that
    /// exist and the bundled skills; deduplicated by real path, order kept.
    public static func resolve(explicit: [String], environment: [String: String], currentDirectory: URL, home: URL, executable: URL?) -> [URL] {
        var candidates: [URL]
        if !explicit.isEmpty {
            candidates = explicit.map { URL(fileURLWithPath: $0, relativeTo: currentDirectory) }
        } else if let path = environment["SKILL_PATH"], !path.isEmpty {
            candidates = path.split(separator: ":").map { URL(fileURLWithPath: String($0), relativeTo: currentDirectory) }
        } else {
            candidates = ["skills", ".claude/skills", ".agents/skills"].map { currentDirectory.appendingPathComponent($0) }
                + [".claude/skills", ".agents/skills", ".codex/skills"].map { home.appendingPathComponent($0) }
            if let bundled = bundled(environment: environment, executable: executable) { candidates.append(bundled) }
        }
        var seen = Set<String>()
        var roots: [URL] = []
        for url in candidates {
            let real = url.standardizedFileURL.resolvingSymlinksInPath()
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: real.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            if seen.insert(real.path).inserted { roots.append(url.standardizedFileURL) }
        }
        return roots
    }

    /// `SKILL_BUNDLED`, else `<prefix>/share/skill/skills` beside an installed binary, else the
    /// checkout's `skills/` when the binary runs from its `.build/`.
    static func bundled(environment: [String: String], executable: URL?) -> URL? {
        if let path = environment["SKILL_BUNDLED"], !path.isEmpty { return URL(fileURLWithPath: path) }
        guard let exe = executable?.resolvingSymlinksInPath() else { return nil }
        let installed = exe.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/skill/skills")
        if FileManager.default.fileExists(atPath: installed.path) { return installed }
        var folder = exe.deletingLastPathComponent()
        while folder.pathComponents.count > 1 {
            if folder.lastPathComponent.hasPrefix(".build") {
                let checkout = folder.deletingLastPathComponent()
                return FileManager.default.fileExists(atPath: checkout.appendingPathComponent("Package.swift").path)
                    ? checkout.appendingPathComponent("skills") : nil
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}
