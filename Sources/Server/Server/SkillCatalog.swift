import Foundation
import SkillIndex

/// The skills as the MCP Skills extension serves them: each indexed skill at a *skill path*
/// whose last segment is its frontmatter `name` (`skill://<skill-path>/SKILL.md`), with its
/// manifest, and the directory tree of every file served.
///
/// The skill path is the plugin's name (for a Claude Code plugin's skill, `PLUGIN:NAME` in the
/// index), then the folders above the skill's own folder under its root, then the name: a skill
/// in `ROOT/NAME/` is `skill://NAME/SKILL.md`, one in `ROOT/acme/billing/refunds/` is
/// `skill://acme/billing/refunds/SKILL.md`, and a nested skill shares its enclosing skill's path
/// as a prefix. When two skills would get the same path (a name that differs from its folder's),
/// the later one keeps its own folder's name as a segment before the name.
struct SkillCatalog {
    /// One served skill.
    struct Item {
        /// The skill path, `/`-separated, not percent-encoded.
        var path: String
        var manifest: SkillManifest
        var frontmatter: JSONValue
    }

    /// Served skills, sorted by skill path.
    private(set) var items: [Item] = []
    /// Skills not served: over a limit, or without a frontmatter holding `name` and `description`.
    private(set) var leftOut: [(manifest: SkillManifest, why: String)] = []
    private var byPath: [String: Int] = [:]
    /// Each directory's direct children (directory path → child name → is a directory).
    private var tree: [String: [String: Bool]] = [:]

    init(_ manifests: [SkillManifest]) {
        var placed: [Item] = []
        var taken = Set<String>()
        for manifest in manifests {
            if let problem = manifest.limitProblem ?? Self.frontmatterProblem(manifest) {
                leftOut.append((manifest, problem))
                continue
            }
            let frontmatter = manifest.frontmatter.flatMap { try? JSONParser.parse(Data($0.utf8)) } ?? .null
            let name = frontmatter["name"]?.stringValue ?? ""
            let folders = manifest.path == "." ? [] : manifest.path.split(separator: "/").map(String.init)
            let prefix = (manifest.plugin.map { [$0] } ?? []) + folders.dropLast()
            var path = (prefix + [name]).joined(separator: "/")
            if taken.contains(path) { path = (prefix + folders.suffix(1) + [name]).joined(separator: "/") }
            guard taken.insert(path).inserted else {
                leftOut.append((manifest, "skill '\(manifest.name)': another skill is served at skill://\(path)/SKILL.md"))
                continue
            }
            placed.append(Item(path: path, manifest: manifest, frontmatter: frontmatter))
        }
        items = placed.sorted { $0.path < $1.path }
        for (offset, item) in items.enumerated() {
            byPath[item.path] = offset
            for file in item.manifest.files {
                let segments = (item.path + "/" + Self.served(file.path, in: item.manifest)).split(separator: "/").map(String.init)
                for depth in 1..<segments.count {
                    let parent = segments[0..<depth].joined(separator: "/")
                    tree[parent, default: [:]][segments[depth]] = depth < segments.count - 1 || tree[parent]?[segments[depth]] == true
                }
            }
        }
    }

    /// Why a skill's frontmatter cannot be sent as the extension asks (an object with a string
    /// `name` that is a valid path segment and a string `description`); `nil` when it can.
    private static func frontmatterProblem(_ manifest: SkillManifest) -> String? {
        guard let text = manifest.frontmatter, let value = try? JSONParser.parse(Data(text.utf8)), value.objectValue != nil else {
            return "skill '\(manifest.name)': its SKILL.md has no frontmatter that loads as a YAML map"
        }
        guard let name = value["name"]?.stringValue, !name.isEmpty, !name.contains("/"), name != ".", name != "..",
            value["description"]?.stringValue != nil
        else {
            return "skill '\(manifest.name)': its frontmatter needs a string `name` (one path segment) and a string `description`"
        }
        return nil
    }

    /// The path a file is served under in its skill: the skill file is always `SKILL.md`.
    static func served(_ file: String, in manifest: SkillManifest) -> String {
        file == manifest.skillFile ? "SKILL.md" : file
    }

    /// `skill://` and the `/`-separated path, each segment percent-encoded as a URI path segment.
    static func uri(_ path: String) -> String {
        "skill://" + (path.addingPercentEncoding(withAllowedCharacters: ResourceURI.allowed) ?? path)
    }

    /// The extension's entry of `item`: its SKILL.md's URI, frontmatter and every file.
    func entry(_ item: Item) -> SkillEntry {
        SkillEntry(
            uri: Self.uri(item.path + "/SKILL.md"), frontmatter: item.frontmatter,
            resources: item.manifest.files.map {
                SkillResource(
                    uri: Self.uri(item.path + "/" + Self.served($0.path, in: item.manifest)), digest: $0.digest, size: Int($0.size))
            })
    }

    /// The skill whose SKILL.md `uri` names; `nil` for any other URI.
    func skill(at uri: String) -> Item? {
        guard let path = Self.path(of: uri), path.hasSuffix("/SKILL.md"), let index = byPath[String(path.dropLast("/SKILL.md".count))]
        else { return nil }
        return items[index]
    }

    /// The skill serving the file at `uri` (the one with the longest skill path that holds it)
    /// and the file's path in the skill's folder.
    func file(at uri: String) -> (item: Item, path: String)? {
        guard let path = Self.path(of: uri) else { return nil }
        var end = path.endIndex
        while let slash = path[..<end].lastIndex(of: "/") {
            if let index = byPath[String(path[..<slash])] {
                let item = items[index]
                let file = String(path[path.index(after: slash)...])
                let real = file == "SKILL.md" ? item.manifest.skillFile : file
                return item.manifest.files.contains { $0.path == real } ? (item, real) : nil
            }
            end = slash
        }
        return nil
    }

    /// The digest of the file served at `uri`; `nil` when none is.
    func digest(of uri: String) -> String? {
        guard let (item, path) = file(at: uri) else { return nil }
        return item.manifest.files.first { $0.path == path }?.digest
    }

    /// The direct children of the directory at `uri` (a skill's root, a folder in it, or a folder
    /// above skills), sorted by name; `nil` when `uri` is not a directory served.
    func children(of uri: String) -> [Resource]? {
        guard let path = Self.path(of: uri), let children = tree[path] else { return nil }
        return children.keys.sorted().map { name in
            let child = path + "/" + name
            if children[name] == true {
                return Resource(uri: Self.uri(child), name: name, title: nil, description: nil, mimeType: "inode/directory", size: nil)
            }
            return Resource(uri: Self.uri(child), name: name, title: nil, description: nil, mimeType: Self.mimeType(name), size: nil)
        }
    }

    /// The decoded path of a `skill://` URI (no trailing slash, no query, no `.` or `..` or empty
    /// segment); `nil` for anything else.
    static func path(of uri: String) -> String? {
        guard uri.hasPrefix("skill://"), !uri.contains("?"), !uri.contains("#"),
            let path = String(uri.dropFirst("skill://".count)).removingPercentEncoding, !path.isEmpty
        else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }), !path.contains("\0") else { return nil }
        return path
    }

    /// The MIME type of a file by its extension (what `resources/read` also sends for text).
    static func mimeType(_ name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "md", "markdown": return "text/markdown"
        case "txt": return "text/plain"
        case "json": return "application/json"
        case "py": return "text/x-python"
        case "sh": return "text/x-shellscript"
        case "yaml", "yml": return "application/yaml"
        case "html": return "text/html"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "svg": return "image/svg+xml"
        case "pdf": return "application/pdf"
        default: return "application/octet-stream"
        }
    }
}
