import Foundation
import Testing

/// Helpers shared by the packaging tests: temp folders, the built `skill` binary, Python.
enum Support {
    /// A fresh folder of its own for one test.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("skill-packaging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.resolvingSymlinksInPath()
    }

    /// The `skill` executable built beside the tests (or `SKILL_BIN`).
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["SKILL_BIN"] { return URL(fileURLWithPath: path) }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("skill")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("debug/skill")
    }()

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `executable` with `arguments` in `cwd`, with HOME and the cache folder set to `home`.
    static func run(_ executable: URL, _ arguments: [String], cwd: URL, home: URL, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = cwd
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home.path
        env["XDG_CACHE_HOME"] = home.appendingPathComponent(".cache").path
        env["SKILL_PATH"] = home.appendingPathComponent("skills").path
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    static func skill(_ arguments: [String], cwd: URL, home: URL, environment: [String: String] = [:]) throws -> Run {
        try run(binary, arguments, cwd: cwd, home: home, environment: environment)
    }

    static func python(_ arguments: [String], cwd: URL) throws -> Run {
        try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments, cwd: cwd, home: cwd)
    }

    /// Every file and folder under `root` with its mode and content: equal snapshots mean
    /// the folder is byte-for-byte unchanged.
    static func snapshot(_ root: URL) -> [String: String] {
        var result: [String: String] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return result }
        while let path = enumerator.nextObject() as? String {
            let url = root.appendingPathComponent(path)
            let attributes = (try? FileManager.default.attributesOfItem(atPath: url.path)) ?? [:]
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
            let content = (try? Data(contentsOf: url)).map { $0.base64EncodedString() } ?? "dir"
            result[path] = "\(String(mode, radix: 8)) \(content)"
        }
        return result
    }

    /// Writes `files` (path → content) under `folder`.
    static func write(_ files: [String: String], in folder: URL) throws {
        for (path, content) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
    }
}
