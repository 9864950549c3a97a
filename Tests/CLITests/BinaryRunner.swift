import Foundation
import TestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// Skips a test that reads ../shared/corpus when the checkout has none beside it.
    static var needsCorpus: Self { .enabled(if: corpusPresent, "needs ../shared/corpus, absent beside this checkout") }
}

/// Runs the real `skill` binary over real pipes, in a hermetic environment.
struct BinaryRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
    }

    /// The binary next to the test bundle (`swift build` puts both in the same folder), or `SKILL_BIN`.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["SKILL_BIN"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("skill")
    }

    /// Runs `skill arguments…` with HOME and XDG_CACHE_HOME in a fresh temporary folder.
    /// - Parameters:
    ///   - environment: added to (or, with an empty value, replacing) the hermetic environment.
    ///   - input: written to the binary's stdin, then closed (else stdin is /dev/null).
    ///   - binary: another binary than the built one (a copy elsewhere).
    static func run(
        _ arguments: [String], currentDirectory: URL? = nil, environment: [String: String] = [:], input: String? = nil,
        binary: URL = binary
    ) throws -> Result {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("skill-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = currentDirectory ?? home
        // SKILL_TRUST_SECONDS=0: every call checks every folder and document, so a test that
        // edits a skill and searches at once sees the edit (FreshnessTests set other values).
        // SKILL_MODEL=none: searches are lexical, as the tests' expected outputs are, and no test
        // pays for an embedding pass it does not test (SemanticSearchCommandTests name the model).
        process.environment = [
            "HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
            "SKILL_PATH": home.appendingPathComponent("skills").path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1",
            "SKILL_TRUST_SECONDS": "0", "SKILL_MODEL": "none",
        ].merging(environment) { $1 }
        let out = Pipe()
        // stderr goes to a file, so that reading one pipe to its end cannot block on the other.
        let errFile = home.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: errFile.path, contents: nil)
        let err = try FileHandle(forWritingTo: errFile)
        process.standardOutput = out
        process.standardError = err
        let stdin = input.map { _ in Pipe() }
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
        if let stdin, let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try err.close()
        let errData = try Data(contentsOf: errFile)
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
    }
}
