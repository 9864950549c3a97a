import ArgumentParser
import Foundation
import SkillPackaging
import SkillParser

/// `skill pack DIR [-o OUTDIR] [--ext zip|skill]`: a byte-identical zip of a valid skill.
struct PackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack",
        abstract: "Validate a skill and pack it into NAME.zip, the same bytes on every run.",
        discussion:
            "Timestamps come from SOURCE_DATE_EPOCH, else 1980-01-01. Excludes .git, .DS_Store, __pycache__, *.pyc, node_modules and .env*. Prints the archive's path and sha256."
    )

    @Argument(help: "The skill folder (holding SKILL.md).")
    var folder: String

    @Option(name: .shortAndLong, help: "The folder to write the archive into (default: the current folder).")
    var output: String = "."

    @Option(help: "The archive's extension: zip or skill.")
    var ext: String = "zip"

    @Flag(help: "Print the result as JSON (with schemaVersion).")
    var json = false

    func validate() throws {
        if PackOptions.Extension(rawValue: ext) == nil { throw ValidationError("--ext must be zip or skill, not '\(ext)'") }
    }

    func run() throws {
        let url = URL(fileURLWithPath: folder).standardizedFileURL
        guard SkillFinder.skillFile(in: url) != nil else {
            throw CLIError(PackagingError.notAFolder(folder))
        }
        let options = PackOptions(
            outputDirectory: URL(fileURLWithPath: output), ext: PackOptions.Extension(rawValue: ext)!,
            sourceDateEpoch: PackOptions.sourceDateEpoch(from: ProcessInfo.processInfo.environment))
        let result: PackResult
        do {
            result = try SkillPacker.pack(
                SkillTarget(folder: url, displayPath: folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder),
                options: options)
        } catch {
            throw CLIError(error)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes, .sortedKeys]
            FileHandle.standardOutput.write(try encoder.encode(result) + Data("\n".utf8))
        }
        Terminal.printDiagnostics(result.diagnostics)
        guard let path = result.output, let sha = result.sha256 else {
            Terminal.printError("error: \(folder): not packed because of the errors above; fix them and run 'skill pack' again")
            throw ExitCode.failure
        }
        if !json {
            print(Self.display(path, output: output, name: (path as NSString).lastPathComponent))
            print("sha256 \(sha)")
        }
    }

    /// The archive's path as the user would write it: `-o` joined with the file name.
    static func display(_ path: String, output: String, name: String) -> String {
        output == "." ? name : (output.hasSuffix("/") ? output + name : "\(output)/\(name)")
    }
}
