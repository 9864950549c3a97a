import Foundation
import SkillParser
import ZIPFoundation

/// What `skill pack` makes.
public struct PackOptions: Sendable {
    /// The archive's file extension: `zip`, or `skill` (the same zip, named for double-click install).
    public enum Extension: String, Sendable, CaseIterable {
        case zip, skill
    }

    public var outputDirectory: URL
    public var ext: Extension
    /// Seconds since 1970 for every entry's timestamp (`SOURCE_DATE_EPOCH`); `nil` gives
    /// 1980-01-01 00:00:00, the earliest date a zip can hold.
    public var sourceDateEpoch: Int?

    public init(outputDirectory: URL, ext: Extension = .zip, sourceDateEpoch: Int? = nil) {
        self.outputDirectory = outputDirectory
        self.ext = ext
        self.sourceDateEpoch = sourceDateEpoch
    }

    /// `SOURCE_DATE_EPOCH` from `environment`, when it is a whole number.
    public static func sourceDateEpoch(from environment: [String: String]) -> Int? {
        environment["SOURCE_DATE_EPOCH"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}

/// What `skill pack` did.
public struct PackResult: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion = Self.currentSchemaVersion
    public var name: String
    /// The archive written, or `nil` when the skill was refused.
    public var output: String?
    /// The archive's SHA-256, lowercase hex.
    public var sha256: String?
    /// The entries of the archive, in order (`NAME/SKILL.md`, …).
    public var entries: [String]
    /// Why the skill was refused (errors), or what to improve (warnings).
    public var diagnostics: [Diagnostic]

    public var refused: Bool { output == nil }
}

/// Packs a skill folder into a byte-identical zip: one top-level folder named after the skill,
/// entries sorted, fixed timestamps, normalised permissions, junk left out.
public enum SkillPacker {
    /// 1980-01-01 00:00:00 UTC: the earliest time an MS-DOS zip timestamp holds.
    public static let zipEpoch = 315_532_800

    /// Validates `target` and, when it has no errors, writes `NAME.zip` (or `.skill`) into the
    /// output directory, through a temporary file renamed into place.
    /// - Throws: ``PackagingError`` when a file cannot be read or the archive cannot be written.
    public static func pack(_ target: SkillTarget, options: PackOptions) throws -> PackResult {
        let validation = SkillValidator.validate(target)
        var diagnostics = validation.diagnostics
        let files = SkillFiles.list(target.folder)
        for file in files {
            let path = target.display(file.path)
            switch file.kind {
            case .file, .linkInside:
                continue
            case .linkOutside:
                diagnostics.append(
                    Diagnostic(
                        .error, .packSymlinkOutside,
                        "this symbolic link leads out of the skill folder and is never followed; copy the file into the skill instead",
                        path: path, line: 1))
            case .linkToFolder:
                diagnostics.append(
                    Diagnostic(
                        .error, .packSymlinkFolder,
                        "this symbolic link points to a folder, which is not packed; replace it by the folder itself",
                        path: path, line: 1))
            case .linkBroken:
                diagnostics.append(
                    Diagnostic(
                        .error, .packSymlinkBroken,
                        "this symbolic link's target does not exist; remove the link or restore its target",
                        path: path, line: 1))
            }
        }
        let name = validation.name
        var result = PackResult(name: name, output: nil, sha256: nil, entries: [], diagnostics: diagnostics)
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return result }

        let fm = FileManager.default
        let outputDirectory = options.outputDirectory.standardizedFileURL
        do {
            try fm.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw PackagingError.unwritable(outputDirectory.path, error.localizedDescription)
        }
        let output = outputDirectory.appendingPathComponent("\(name).\(options.ext.rawValue)")
        let temporary = outputDirectory.appendingPathComponent(".\(name).\(options.ext.rawValue).\(UUID().uuidString).tmp")
        defer { try? fm.removeItem(at: temporary) }
        let date = Date(timeIntervalSince1970: TimeInterval(max(options.sourceDateEpoch ?? zipEpoch, zipEpoch)))
        let archive: Archive
        do {
            archive = try Archive(url: temporary, accessMode: .create)
        } catch {
            throw PackagingError.unwritable(temporary.path, error.localizedDescription)
        }
        for file in files {
            let source = target.folder.appendingPathComponent(file.path)
            let data: Data
            do {
                data = try Data(contentsOf: source.resolvingSymlinksInPath())
            } catch {
                throw PackagingError.unreadable(target.display(file.path), error.localizedDescription)
            }
            let entry = "\(name)/\(file.path)"
            do {
                try archive.addEntry(
                    with: entry, type: .file, uncompressedSize: Int64(data.count), modificationDate: date,
                    permissions: file.isExecutable ? 0o755 : 0o644, compressionMethod: .deflate,
                    provider: { (position: Int64, size: Int) -> Data in
                        data.subdata(in: Int(position)..<Int(position) + size)
                    })
            } catch {
                throw PackagingError.unwritable(temporary.path, error.localizedDescription)
            }
            result.entries.append(entry)
        }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: temporary)
            try FileSystem.rename(temporary, to: output)
        } catch {
            throw PackagingError.unwritable(output.path, error.localizedDescription)
        }
        result.output = output.path
        result.sha256 = SHA256.hex(bytes)
        return result
    }
}
