import Foundation

/// What `skill check` reports for a set of files.
public struct CheckReport: Codable, Hashable, Sendable {
    /// Findings of every file, by path then line.
    public var findings: [Finding] = []
    /// The checklists relevant to the checked code (only when asked for).
    public var checklists: [RelevantChecklist] = []
    /// How many files were read.
    public var files = 0
    public var lines = 0

    public init() {}
}

/// What went wrong reading the code to check (never the code's content).
public enum CheckError: Error, LocalizedError, Equatable, Sendable {
    case notFound(String)
    case unsupported(String)
    case unreadable(String, String)
    case tooLarge(String, Int)

    public var errorDescription: String? {
        switch self {
        case .notFound(let path):
            return "\(path) does not exist; pass a file or folder of Swift, Python or TypeScript code"
        case .unsupported(let path):
            return "cannot check \(path): not Swift, Python or TypeScript (.swift, .py, .ts, .tsx, .js, .jsx); pass such a file or a folder"
        case .unreadable(let path, let why):
            return "cannot read \(path): \(why)"
        case .tooLarge(let path, let size):
            return "\(path) is \(size) bytes, over the \(Checker.maximumFileSize)-byte limit for one file; check a smaller file"
        }
    }
}

/// Applies the index's anti-patterns and checklists to code: files, folders or a string.
public struct Checker: Sendable {
    /// A file larger than this is refused (a generated or minified file is not what skills review).
    public static let maximumFileSize = 4 << 20
    /// Folders never walked into: build output and dependencies.
    static let skippedFolders: Set<String> = [
        ".build", "node_modules", "Pods", "DerivedData", "Carthage", "__pycache__", ".git", "dist", "build", ".venv", "venv",
    ]

    public let signatures: SignatureSet
    public let checklists: [IndexedChecklist]

    public init(signatures: SignatureSet, checklists: [IndexedChecklist]) {
        self.signatures = signatures
        self.checklists = checklists
    }

    /// Findings (and, with `checklists`, the relevant checklists) for one piece of code.
    public func review(
        _ source: String, language: SourceLanguage, path: String, minScore: Double = SignatureSet.defaultMinScore,
        checklists wantChecklists: Bool = true
    ) -> CheckReport {
        var report = CheckReport()
        report.files = 1
        report.lines = Self.lineCount(source)
        report.findings = signatures.check(source, language: language, path: path, minScore: minScore)
        if wantChecklists { report.checklists = ChecklistSelector.relevant(checklists, to: source) }
        return report
    }

    /// Every file to check under `paths`: files as given (they must be of a known language),
    /// folders walked for known extensions, skipping hidden and build folders; sorted.
    /// - Throws: ``CheckError`` for a missing path or a file given explicitly in another language.
    public static func files(_ paths: [String]) throws -> [String] {
        var out: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isFolder) else { throw CheckError.notFound(path) }
            if !isFolder.boolValue {
                guard SourceLanguage(path: path) != nil else { throw CheckError.unsupported(path) }
                out.append(path)
                continue
            }
            var found: [String] = []
            walk(path, into: &found)
            out += found.sorted()
        }
        return out
    }

    private static func walk(_ folder: String, into found: inout [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where !name.hasPrefix(".") && !skippedFolders.contains(name) {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var status = stat()
            // lstat: a symlink is neither walked nor read, so a link loop cannot trap the walk.
            guard lstat(path, &status) == 0 else { continue }
            if status.st_mode & S_IFMT == S_IFDIR {
                walk(path, into: &found)
            } else if status.st_mode & S_IFMT == S_IFREG, SourceLanguage(path: path) != nil {
                found.append(path)
            }
        }
    }

    /// Checks every file under `paths` (see ``files(_:)``).
    /// - Parameters:
    ///   - kinds: what to report: anti-pattern findings, relevant checklists, or both.
    /// - Throws: ``CheckError`` when a path is missing, of another language, unreadable or too large.
    public func check(
        paths: [String], minScore: Double = SignatureSet.defaultMinScore, findings wantFindings: Bool = true,
        checklists wantChecklists: Bool = false
    ) throws -> CheckReport {
        var report = CheckReport()
        var all = ""
        for path in try Self.files(paths) {
            let source = try Self.read(path)
            report.files += 1
            report.lines += Self.lineCount(source)
            if wantFindings, let language = SourceLanguage(path: path) {
                report.findings += signatures.check(source, language: language, path: path, minScore: minScore)
            }
            if wantChecklists { all += source + "\n" }
        }
        if wantChecklists { report.checklists = ChecklistSelector.relevant(checklists, to: all) }
        return report
    }

    /// Lines of text: newlines, plus one for a last line without its newline.
    static func lineCount(_ source: String) -> Int {
        let newlines = source.utf8.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
        return newlines + (source.utf8.last.map { $0 == 0x0A ? 0 : 1 } ?? 0)
    }

    /// The text of `path`, invalid UTF-8 replaced.
    public static func read(_ path: String) throws -> String {
        let url = URL(fileURLWithPath: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maximumFileSize else { throw CheckError.tooLarge(path, size) }
        do {
            return String(decoding: try Data(contentsOf: url), as: UTF8.self)
        } catch {
            throw CheckError.unreadable(path, (error as NSError).localizedDescription)
        }
    }
}
