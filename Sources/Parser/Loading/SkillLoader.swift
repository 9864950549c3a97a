import Foundation

/// Reads a skill folder: SKILL.md, its other markdown documents and its other files.
public enum SkillLoader {
    /// Parses the skill in `folder`, found under `root`. Problems with its files are diagnostics.
    /// - Parameters:
    ///   - name: the name to index it under instead of its own (`NAME~2` for a second skill of
    ///     the same name in one root).
    ///   - reader: reads one file; an index passes one that hashes the very bytes it parses.
    public static func load(
        folder: URL, root: URL, as name: String? = nil, reader: (URL) throws -> Data = { try Data(contentsOf: $0) }
    ) -> Skill {
        let override = name
        let folderPath = relativePath(of: folder, to: root)
        let skillFile = SkillFinder.skillFile(in: folder)?.lastPathComponent ?? "SKILL.md"
        var markdown: [String] = []
        var resources: [String] = []
        // Files under a nested SKILL.md belong to that skill, not to this one.
        FolderWalker.walk(folder, stopsAtSkills: true) { dir in
            for file in dir.files where file.isReadable && file.path != skillFile {
                if file.name.lowercased().hasSuffix(".md") { markdown.append(file.path) } else { resources.append(file.path) }
            }
        }
        var diagnostics: [Diagnostic] = []
        let skillPath = join(folderPath, skillFile)
        let skillData = read(folder.appendingPathComponent(skillFile), path: skillPath, reader: reader, diagnostics: &diagnostics)
        let folderName = folder.standardizedFileURL.lastPathComponent
        let (main, name, skillEntries) = parseSkillFile(skillData, path: skillPath, folderName: folderName, as: override)
        let description = main.frontmatter.description ?? ""
        diagnostics += main.diagnostics
        SpecRules.check(main.frontmatter, folder: folderName, path: skillPath, diagnostics: &diagnostics)
        var documents = [main.document]
        var entries = skillEntries
        for path in markdown.sorted() {
            let filePath = join(folderPath, path)
            let data = read(folder.appendingPathComponent(path), path: filePath, reader: reader, diagnostics: &diagnostics)
            let parsed = DocumentParser.parse(data, path: filePath, skill: name, key: stem(path), isSkillFile: false)
            documents.append(parsed.document)
            entries += parsed.entries
            diagnostics += parsed.diagnostics
        }
        return Skill(
            name: name, description: description, path: folderPath, frontmatter: main.frontmatter,
            documents: documents, resources: resources.sorted(), entries: entries, diagnostics: diagnostics)
    }

    /// A skill's SKILL.md parsed: the document, the skill's name and its entries, the skill's own first.
    private static func parseSkillFile(
        _ data: Data, path: String, folderName: String, as override: String?
    ) -> (main: ParsedDocument, name: String, entries: [Entry]) {
        let main = DocumentParser.parse(data, path: path, key: stem((path as NSString).lastPathComponent), isSkillFile: true) {
            override ?? skillName($0, folder: folderName)
        }
        let name = override ?? skillName(main.frontmatter, folder: folderName)
        let lines = main.frontmatter.lines ?? 1...1
        let skillEntry = Entry(
            id: name, kind: .skill, title: name, skill: name, breadcrumb: [],
            source: SourceSpan(path: path, line: lines.lowerBound, endLine: min(lines.upperBound, max(main.document.lineCount, 1))),
            markdown: main.source.slice(lines.lowerBound, lines.upperBound), text: main.frontmatter.description ?? "", role: .routing)
        return (main, name, [skillEntry] + main.entries)
    }

    /// The entries of one document of the skill in `folder`, parsed from `data` exactly as
    /// ``load(folder:root:as:)`` parses it within the whole skill: what an index that keeps no
    /// copy of an entry reads it back from.
    /// - Parameters:
    ///   - path: the document's path relative to `root`.
    ///   - name: the name the skill is indexed under.
    public static func entries(ofDocument data: Data, path: String, folder: URL, root: URL, as name: String) -> [Entry] {
        let folderPath = relativePath(of: folder, to: root)
        let skillFile = SkillFinder.skillFile(in: folder)?.lastPathComponent ?? "SKILL.md"
        if path == join(folderPath, skillFile) {
            return parseSkillFile(data, path: path, folderName: folder.standardizedFileURL.lastPathComponent, as: name).entries
        }
        let inFolder = folderPath == "." ? path : String(path.dropFirst(folderPath.count + 1))
        return DocumentParser.parse(data, path: path, skill: name, key: stem(inFolder), isSkillFile: false).entries
    }

    /// The frontmatter's `name`, else the folder's name.
    static func skillName(_ frontmatter: Frontmatter, folder: String) -> String {
        frontmatter.name.flatMap { $0.isEmpty ? nil : $0 } ?? folder
    }

    static func read(
        _ url: URL, path: String, reader: (URL) throws -> Data = { try Data(contentsOf: $0) }, diagnostics: inout [Diagnostic]
    ) -> Data {
        do {
            return try reader(url)
        } catch {
            diagnostics.append(Diagnostic(.error, .unreadable, "cannot read the file: \(error.localizedDescription)", path: path, line: 1))
            return Data()
        }
    }

    /// `path` without its `.md` ending.
    static func stem(_ path: String) -> String {
        path.lowercased().hasSuffix(".md") ? String(path.dropLast(3)) : path
    }

    static func join(_ folder: String, _ path: String) -> String {
        folder == "." ? path : "\(folder)/\(path)"
    }

    /// `url`'s path relative to `base`, or `.` when they are the same folder.
    public static func relativePath(of url: URL, to base: URL) -> String {
        let path = url.standardizedFileURL.path
        let basePath = base.standardizedFileURL.path
        if path == basePath { return "." }
        let prefix = basePath.hasSuffix("/") ? basePath : basePath + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

extension SkillLoader {
    /// Parses the skills in `folders`, found under `root`, on all cores; in the order given.
    public static func load(folders: [URL], root: URL) -> [Skill] {
        let results = Results(count: folders.count)
        DispatchQueue.concurrentPerform(iterations: folders.count) { index in
            results.set(index, load(folder: folders[index], root: root))
        }
        return results.values
    }

    /// Results written by concurrent workers, each to its own slot.
    private final class Results: Sendable {
        private let slots: Locked<[Skill?]>

        init(count: Int) { slots = Locked(Array(repeating: nil, count: count)) }

        func set(_ index: Int, _ skill: Skill) {
            slots.withLock { $0[index] = skill }
        }

        var values: [Skill] { slots.withLock { $0.map { $0! } } }
    }

    /// Parses one markdown file on its own, as a document of the skill whose folder holds it
    /// (the nearest folder above it with a SKILL.md), else of a skill named after its folder.
    public static func loadDocument(_ file: URL) -> Skill {
        var skillFolder: URL? = file.deletingLastPathComponent()
        while let folder = skillFolder, SkillFinder.skillFile(in: folder) == nil {
            let parent = folder.deletingLastPathComponent()
            skillFolder = parent.path == folder.path ? nil : parent
        }
        let folder = skillFolder ?? file.deletingLastPathComponent()
        let root = folder.deletingLastPathComponent()
        var name = folder.lastPathComponent
        if skillFolder != nil, let skillFile = SkillFinder.skillFile(in: folder), let data = try? Data(contentsOf: skillFile) {
            var ignored: [Diagnostic] = []
            let front = FrontmatterParser.parse(
                SourceText(bytes: data, path: "", diagnostics: &ignored), path: "", required: false, diagnostics: &ignored)
            name = skillName(front.frontmatter, folder: name)
        }
        var diagnostics: [Diagnostic] = []
        let path = relativePath(of: file, to: root)
        let data = read(file, path: path, diagnostics: &diagnostics)
        let parsed = DocumentParser.parse(data, path: path, skill: name, key: stem(relativePath(of: file, to: folder)), isSkillFile: false)
        return Skill(
            name: name, description: "", path: relativePath(of: folder, to: root), frontmatter: parsed.frontmatter,
            documents: [parsed.document], resources: [], entries: parsed.entries, diagnostics: diagnostics + parsed.diagnostics)
    }
}
