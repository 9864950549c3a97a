import Foundation
import SkillParser
import ZIPFoundation

/// A checked archive or folder, ready to install: what it brings and why it may be refused.
public struct InstallPlan: Sendable {
    /// The skill's name: its top-level folder.
    public var name: String
    public var source: URL
    /// Files relative to the skill folder, sorted.
    public var files: [String]
    /// Files an agent may run: under scripts/, executable, or with a script extension.
    public var scripts: [String]
    /// The frontmatter's `allowed-tools`, split on spaces (commas tolerated).
    public var allowedTools: [String]
    public var uncompressedBytes: Int64
    /// Errors refuse the install.
    public var diagnostics: [Diagnostic]

    public var refused: Bool { diagnostics.contains { $0.severity == .error } }

    fileprivate var isArchive: Bool
    /// Archive entry paths (or folder file paths) by path inside the skill.
    fileprivate var members: [(entry: String, path: String, executable: Bool)]
}

/// Installs skills from a zip or a folder, checking everything before writing anything, and
/// uninstalls them.
public enum SkillInstaller {
    public static let entryLimit = 1_000
    public static let byteLimit: Int64 = 50 * 1024 * 1024
    public static let ratioLimit: Int64 = 100
    static let scriptExtensions: Set<String> = [
        "sh", "bash", "zsh", "py", "js", "mjs", "cjs", "ts", "rb", "pl", "php", "ps1", "bat", "cmd", "swift", "go", "lua",
    ]

    /// Checks every entry of `source` (a zip or `.skill` archive, or a skill folder) without
    /// writing anything. `display` is how diagnostics name the source.
    /// - Throws: ``PackagingError`` when the source cannot be read or is not a zip archive.
    public static func inspect(_ source: URL, display: String) throws -> InstallPlan {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory) else {
            throw PackagingError.unreadable(display, "no such file or folder")
        }
        return isDirectory.boolValue ? inspectFolder(source, display: display) : try inspectArchive(source, display: display)
    }

    private static func refuse(_ id: RuleID, _ message: String, _ display: String) -> Diagnostic {
        Diagnostic(.error, id, message, path: display, line: 1)
    }

    static func inspectArchive(_ source: URL, display: String) throws -> InstallPlan {
        let archive: Archive
        do {
            archive = try Archive(url: source, accessMode: .read)
        } catch {
            throw PackagingError.corruptArchive(display, "\(error)")
        }
        var diagnostics: [Diagnostic] = []
        var members: [(entry: String, path: String, executable: Bool)] = []
        var seen = Set<String>()
        var topLevel = Set<String>()
        var total: Int64 = 0
        var compressed: Int64 = 0
        var count = 0
        var rootFiles: [String] = []
        for entry in archive {
            count += 1
            if count > entryLimit { continue }
            let raw = entry.path
            // Finder's resource forks and litter are not part of the skill.
            if raw.hasPrefix("__MACOSX/") || raw == "__MACOSX" || raw.hasSuffix("/.DS_Store") || raw == ".DS_Store" { continue }
            // A folder holds no bytes: the sizes of a folder entry are not counted (Info-ZIP's
            // zip64 folder entries declare 0xFFFFFFFF, a placeholder, not a size).
            if entry.type != .directory {
                total += Int64(clamping: entry.uncompressedSize)
                compressed += Int64(clamping: entry.compressedSize)
            }
            if raw.contains("\\") {
                diagnostics.append(
                    refuse(
                        .installBackslash,
                        "the entry '\(Echo.bounded(raw))' contains a backslash, which Windows reads as a folder separator", display))
                continue
            }
            if raw.hasPrefix("/") || raw.range(of: #"^[A-Za-z]:"#, options: .regularExpression) != nil {
                diagnostics.append(refuse(.installAbsolutePath, "the entry '\(Echo.bounded(raw))' is an absolute path", display))
                continue
            }
            let parts = raw.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
            if parts.contains("..") || raw.unicodeScalars.contains(where: { $0.value < 0x20 }) {
                diagnostics.append(refuse(.installUnsafePath, "the entry '\(Echo.bounded(raw))' leads out of the skill folder", display))
                continue
            }
            if entry.type == .symlink {
                diagnostics.append(
                    refuse(.installSymlink, "the entry '\(Echo.bounded(raw))' is a symbolic link, which could point anywhere", display))
                continue
            }
            guard let first = parts.first else { continue }
            topLevel.insert(String(first))
            let path = parts.dropFirst().joined(separator: "/")
            if entry.type == .directory { continue }
            if parts.count == 1 {
                rootFiles.append(raw)
                continue
            }
            if !seen.insert(parts.joined(separator: "/").lowercased()).inserted {
                diagnostics.append(
                    refuse(.installDuplicate, "the entry '\(Echo.bounded(raw))' appears twice (letter case ignored)", display))
                continue
            }
            let lower = path.lowercased()
            if lower.hasSuffix(".zip") || lower.hasSuffix(".skill") {
                diagnostics.append(
                    refuse(
                        .installNestedArchive,
                        "the entry '\(Echo.bounded(raw))' is an archive inside the archive; unpack it into the skill instead", display))
                continue
            }
            let mode = (entry.fileAttributes[.posixPermissions] as? NSNumber)?.uint16Value ?? 0o644
            members.append((raw, path, mode & 0o111 != 0))
        }
        if count > entryLimit {
            diagnostics.append(refuse(.installTooManyEntries, "the archive has \(count) entries, over the limit of \(entryLimit)", display))
        }
        if total > byteLimit {
            diagnostics.append(
                refuse(.installTooLarge, "the archive unpacks to \(total) bytes, over the limit of 50 MB (\(byteLimit) bytes)", display))
        }
        if total > 1 << 20, total > compressed * ratioLimit {
            diagnostics.append(
                refuse(
                    .installCompressionRatio,
                    "the archive unpacks to \(total / max(compressed, 1)) times its compressed size, over \(ratioLimit): a zip bomb",
                    display))
        }
        let name = topLevel.count == 1 ? topLevel.first! : ""
        if topLevel.count != 1 || !rootFiles.isEmpty {
            let found = (topLevel.sorted().map { "'\($0)/'" } + rootFiles.map { "'\($0)'" }).prefix(5).joined(separator: ", ")
            diagnostics.append(
                refuse(
                    .installTopLevel,
                    "the archive must hold exactly one top-level folder named after the skill, with SKILL.md in it; it holds \(found.isEmpty ? "nothing" : found)",
                    display))
        }
        return try finish(
            name: name, source: source, display: display, members: members, bytes: total, isArchive: true, diagnostics: diagnostics
        ) {
            guard let entry = archive[$0] else { return nil }
            return try BoundedRead.entry(entry, of: archive, limit: DocumentParser.largeFileBytes, display: display)
        }
    }

    static func inspectFolder(_ source: URL, display: String) -> InstallPlan {
        var diagnostics: [Diagnostic] = []
        var members: [(entry: String, path: String, executable: Bool)] = []
        var total: Int64 = 0
        let files = SkillFiles.list(source)
        for file in files {
            switch file.kind {
            case .file, .linkInside:
                total += file.size
                let lower = file.path.lowercased()
                if lower.hasSuffix(".zip") || lower.hasSuffix(".skill") {
                    diagnostics.append(
                        refuse(
                            .installNestedArchive, "'\(Echo.bounded(file.path))' is an archive inside the skill; unpack it instead", display
                        ))
                }
                members.append((file.path, file.path, file.isExecutable))
            default:
                diagnostics.append(
                    refuse(
                        .installSymlink,
                        "'\(Echo.bounded(file.path))' is a symbolic link that leads out of the skill, to a folder, or nowhere", display))
            }
        }
        if files.count > entryLimit {
            diagnostics.append(
                refuse(.installTooManyEntries, "the folder has \(files.count) files, over the limit of \(entryLimit)", display))
        }
        if total > byteLimit {
            diagnostics.append(
                refuse(.installTooLarge, "the folder holds \(total) bytes, over the limit of 50 MB (\(byteLimit) bytes)", display))
        }
        let name = source.standardizedFileURL.lastPathComponent
        return
            (try? finish(
                name: name, source: source, display: display, members: members, bytes: total, isArchive: false, diagnostics: diagnostics
            ) {
                BoundedRead.file(source.appendingPathComponent($0).resolvingSymlinksInPath(), limit: DocumentParser.largeFileBytes)
            })
            ?? InstallPlan(
                name: name, source: source, files: [], scripts: [], allowedTools: [], uncompressedBytes: total, diagnostics: diagnostics,
                isArchive: false, members: [])
    }

    private static func finish(
        name: String, source: URL, display: String, members: [(entry: String, path: String, executable: Bool)],
        bytes: Int64, isArchive: Bool, diagnostics: [Diagnostic], read: (String) throws -> Data?
    ) throws -> InstallPlan {
        var diagnostics = diagnostics
        let skillMember = members.first { $0.path == "SKILL.md" } ?? members.first { $0.path == "skill.md" }
        var allowedTools: [String] = []
        if let skillMember, let data = try read(skillMember.entry) {
            let parsed = DocumentParser.parse(data, path: "SKILL.md", skill: name, key: "SKILL", isSkillFile: true)
            if let tools = parsed.frontmatter.field("allowed-tools")?.value {
                switch tools {
                case .string(let s): allowedTools = s.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" }).map(String.init)
                case .list(let items): allowedTools = items.compactMap(\.string)
                default: break
                }
            }
        } else if !diagnostics.contains(where: { $0.id == .installTopLevel }) {
            diagnostics.append(refuse(.installNoSkillFile, "'\(name)/SKILL.md' is missing; a skill is a folder holding SKILL.md", display))
        }
        let scripts = members.filter { m in
            let ext = (m.path as NSString).pathExtension.lowercased()
            return m.executable || m.path.hasPrefix("scripts/") || scriptExtensions.contains(ext)
        }.map(\.path).sorted()
        return InstallPlan(
            name: name, source: source, files: members.map(\.path).sorted(), scripts: scripts, allowedTools: allowedTools,
            uncompressedBytes: bytes, diagnostics: diagnostics, isArchive: isArchive, members: members)
    }

    /// What `install` did.
    public struct Outcome: Sendable {
        /// The installed skill folder, or `nil` when the skill was refused after unpacking.
        public var installed: URL?
        /// Whether an older copy was replaced (`--force`).
        public var replaced: Bool
        /// The validation of the unpacked skill.
        public var diagnostics: [Diagnostic]
    }

    /// Installs a plan that `inspect` did not refuse: unpacks into a temporary folder inside
    /// `skillsFolder` (the same file system), validates it, then renames it into place; with
    /// `force` an existing copy is swapped out atomically. On any failure nothing is left behind.
    /// - Throws: ``PackagingError`` for a refused plan's I/O, an existing skill without `force`, or a failed write.
    public static func install(_ plan: InstallPlan, into skillsFolder: URL, force: Bool) throws -> Outcome {
        precondition(!plan.refused, "install a plan only when inspect did not refuse it")
        let fm = FileManager.default
        let final = skillsFolder.appendingPathComponent(plan.name)
        let exists = fm.fileExists(atPath: final.path) || FileSystem.isSymlink(final)
        if exists && !force { throw PackagingError.alreadyInstalled(final.path) }

        // Create only the folders that are missing, and remove them again on failure.
        var created: [URL] = []
        var folder = skillsFolder.standardizedFileURL
        while !fm.fileExists(atPath: folder.path) {
            created.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        do {
            try fm.createDirectory(at: skillsFolder, withIntermediateDirectories: true)
        } catch {
            throw PackagingError.unwritable(skillsFolder.path, error.localizedDescription)
        }
        StagingArea.sweep(skillsFolder)
        let staging = StagingArea.make(in: skillsFolder, purpose: "install")
        defer {
            StagingArea.remove(staging)
            for url in created where (try? fm.contentsOfDirectory(atPath: url.path))?.isEmpty == true {
                try? fm.removeItem(at: url)
            }
        }
        let unpacked = staging.appendingPathComponent(plan.name)
        do {
            try fm.createDirectory(at: unpacked, withIntermediateDirectories: true)
            if plan.isArchive { try unpack(plan, into: unpacked) } else { try copy(plan, into: unpacked) }
        } catch let error as PackagingError {
            throw error
        } catch {
            throw PackagingError.unwritable(staging.path, error.localizedDescription)
        }
        let validation = SkillValidator.validate(SkillTarget(folder: unpacked, displayPath: plan.name))
        guard validation.valid else {
            return Outcome(installed: nil, replaced: false, diagnostics: validation.diagnostics)
        }
        do {
            if exists {
                _ = try FileSystem.exchange(unpacked, final, aside: staging.appendingPathComponent(".old"))
            } else {
                try FileSystem.renameNoReplace(unpacked, to: final)
            }
        } catch {
            throw PackagingError.moveFailed(final.path, error.localizedDescription)
        }
        created = []
        return Outcome(installed: final, replaced: exists, diagnostics: validation.diagnostics)
    }

    /// Unpacks the plan's members, refusing any entry that holds more bytes than it declared.
    private static func unpack(_ plan: InstallPlan, into folder: URL) throws {
        let archive: Archive
        do {
            archive = try Archive(url: plan.source, accessMode: .read)
        } catch {
            throw PackagingError.corruptArchive(plan.source.path, "\(error)")
        }
        var total: Int64 = 0
        for member in plan.members {
            guard let entry = archive[member.entry] else { continue }
            let url = folder.appendingPathComponent(member.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw PackagingError.unwritable(url.path, "cannot create the file")
            }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            var written: Int64 = 0
            let declared = Int64(clamping: entry.uncompressedSize)
            do {
                _ = try archive.extract(entry) { chunk in
                    written += Int64(chunk.count)
                    total += Int64(chunk.count)
                    if written > declared || total > byteLimit {
                        throw PackagingError.corruptArchive(
                            plan.source.path, "'\(Echo.bounded(member.entry))' holds more bytes than it declares")
                    }
                    try handle.write(contentsOf: chunk)
                }
            } catch let error as PackagingError {
                throw error
            } catch {
                throw PackagingError.corruptArchive(plan.source.path, "\(member.entry): \(error)")
            }
            try FileManager.default.setAttributes([.posixPermissions: member.executable ? 0o755 : 0o644], ofItemAtPath: url.path)
        }
    }

    private static func copy(_ plan: InstallPlan, into folder: URL) throws {
        for member in plan.members {
            let url = folder.appendingPathComponent(member.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let source = plan.source.appendingPathComponent(member.entry).resolvingSymlinksInPath()
            // Bounded: a file that grew past the limit since it was inspected is not copied.
            guard let data = BoundedRead.file(source, limit: Int(byteLimit) + 1), data.count <= byteLimit else {
                throw PackagingError.unreadable(source.path, "it is unreadable or grew past the limit of 50 MB since it was checked")
            }
            try data.write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: member.executable ? 0o755 : 0o644], ofItemAtPath: url.path)
        }
    }

    /// Removes the skill `name` from `skillsFolder`: moved aside in one rename, then deleted.
    /// - Throws: ``PackagingError/invalidName(_:)`` for a name with `/` or `..`,
    ///   ``PackagingError/notInstalled(_:)`` when there is no skill folder of that name.
    @discardableResult
    public static func uninstall(_ name: String, from skillsFolder: URL) throws -> URL {
        guard !name.isEmpty, !name.contains("/"), !name.contains("\\"), name != ".", name != "..", !name.hasPrefix(".") else {
            throw PackagingError.invalidName(name)
        }
        let fm = FileManager.default
        let folder = skillsFolder.appendingPathComponent(name)
        let isLink = FileSystem.isSymlink(folder)
        guard isLink || SkillFinder.skillFile(in: folder) != nil else { throw PackagingError.notInstalled(folder.path) }
        StagingArea.sweep(skillsFolder)
        let aside = StagingArea.make(in: skillsFolder, purpose: "uninstall")
        defer { StagingArea.remove(aside) }
        do {
            try FileSystem.rename(folder, to: aside)
            try fm.removeItem(at: aside)
        } catch {
            throw PackagingError.unwritable(folder.path, error.localizedDescription)
        }
        return folder
    }

    /// From now on, SIGINT, SIGTERM and SIGHUP remove the folders an install or uninstall is
    /// working in before the process dies of the signal. Call once, from the command line tool.
    public static func removeStagingOnSignals() {
        StagingArea.removeOnSignals()
    }
}
