import Foundation

/// A Claude Code plugin that ships skills: a folder holding `.claude-plugin/plugin.json` and a
/// `skills/` folder of skill folders. Its skills are indexed as `PLUGIN:SKILL`, the name Claude
/// Code gives them (`/plugin:skill`).
public struct ClaudePlugin: Hashable, Sendable {
    /// The manifest's `name` (else the plugin's folder name).
    public var name: String
    /// The manifest's `version`, if it has one.
    public var version: String?
    /// The plugin's folder.
    public var folder: URL

    /// The folder of its skills.
    public var skills: URL { folder.appendingPathComponent("skills") }

    /// The largest plugin.json read; a bigger one is not a manifest.
    static let manifestLimit = 1 << 20

    /// The plugin in `folder`, when it holds `.claude-plugin/plugin.json` and a `skills/` folder;
    /// `fallbackName` names it when the manifest has no usable `name`.
    static func at(_ folder: URL, fallbackName: String) -> ClaudePlugin? {
        let manifest = folder.appendingPathComponent(".claude-plugin/plugin.json")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: manifest.path),
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("skills").path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { return nil }
        var name = fallbackName
        var version: String?
        if let data = try? Data(contentsOf: manifest), data.count <= manifestLimit,
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        {
            if let text = object["name"] as? String, isPluginName(text) { name = text }
            version = (object["version"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        }
        return ClaudePlugin(name: name, version: version, folder: folder)
    }

    /// A name that can prefix a skill's: no separators, colons or control characters.
    static func isPluginName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && !text.contains { $0 == "/" || $0 == "\\" || $0 == ":" || $0.isNewline || $0.isWhitespace }
    }

    /// The plugin whose `skills/` folder is `skillsFolder`, if it is one: how the index tells a
    /// plugin's root from any other.
    public static func owning(skillsFolder: URL) -> ClaudePlugin? {
        let folder = skillsFolder.standardizedFileURL
        guard folder.lastPathComponent == "skills" else { return nil }
        let plugin = folder.deletingLastPathComponent()
        var fallback = plugin.lastPathComponent
        // In the cache layout the plugin's folder is its version: the plugin is named one above.
        if plugin.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().lastPathComponent == "cache" {
            fallback = plugin.deletingLastPathComponent().lastPathComponent
        }
        return at(plugin, fallbackName: fallback)
    }

    /// The plugins under Claude Code's plugins folder (`~/.claude/plugins`, or under
    /// `$CLAUDE_CONFIG_DIR`) that ship skills, each plugin once: the cache layout
    /// (`cache/MARKETPLACE/PLUGIN/VERSION/`) before the marketplace layout
    /// (`marketplaces/MARKETPLACE/`, the plugin at its root or up to two folders below, as in
    /// `plugins/PLUGIN/`), and of several cached versions the highest. Sorted by name.
    public static func installed(_ places: Agent.Places) -> [ClaudePlugin] {
        guard let claude = Agent.named("claude-code") else { return [] }
        let root = claude.baseFolder(places).appendingPathComponent("plugins")
        var found: [String: ClaudePlugin] = [:]
        for marketplace in subfolders(root.appendingPathComponent("cache")) {
            for plugin in subfolders(marketplace) {
                for version in subfolders(plugin) {
                    guard let candidate = at(version, fallbackName: plugin.lastPathComponent) else { continue }
                    if let known = found[candidate.name], !isNewer(candidate, than: known) { continue }
                    found[candidate.name] = candidate
                }
            }
        }
        let cached = Set(found.keys)
        for marketplace in subfolders(root.appendingPathComponent("marketplaces")) {
            let levels = [[marketplace], subfolders(marketplace)]
            for folder in levels[0] + levels[1] + levels[1].flatMap(subfolders) {
                guard let candidate = at(folder, fallbackName: folder.lastPathComponent), !cached.contains(candidate.name) else { continue }
                if found[candidate.name] == nil { found[candidate.name] = candidate }
            }
        }
        return found.values.sorted { $0.name < $1.name }
    }

    /// Whether `a` has a higher version than `b` (dot-separated numbers compared as numbers,
    /// anything else as text; a version beats none).
    static func isNewer(_ a: ClaudePlugin, than b: ClaudePlugin) -> Bool {
        guard let x = a.version else { return false }
        guard let y = b.version else { return true }
        let xs = x.split(separator: ".")
        let ys = y.split(separator: ".")
        for (p, q) in zip(xs, ys) where p != q {
            if let i = Int(p), let j = Int(q) { return i > j }
            return p > q
        }
        return xs.count > ys.count
    }

    /// The folders in `folder` (hidden ones left out), sorted; none when it cannot be read.
    static func subfolders(_ folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0) }.filter { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }
}
