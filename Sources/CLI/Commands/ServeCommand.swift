import ArgumentParser
import Foundation
import SkillServer

/// `skill serve`: the Model Context Protocol server over stdin/stdout.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the skills over the Model Context Protocol (JSON-RPC on stdin/stdout).",
        discussion: "stdout carries protocol messages only; logs go to stderr. Exits 0 at end of input once every reply is written."
    )

    @Option(name: .customLong("skills"), help: "A folder of skills (repeatable). Default: SKILL_PATH, else the standard folders.")
    var skills: [String] = []

    @Option(help: "Log level on stderr: off, error, warning, info, debug.")
    var logLevel: String = "warning"

    @Option(help: ArgumentHelp("Items per page of resources/list and prompts/list.", visibility: .hidden))
    var pageSize: Int = 50

    func validate() throws {
        guard pageSize > 0 else { throw ValidationError("--page-size must be positive") }
        guard ServerLog.Level(name: logLevel) != nil else {
            throw ValidationError("--log-level must be one of off, error, warning, info, debug")
        }
    }

    func run() throws {
        let log = ServerLog(level: ServerLog.Level(name: logLevel) ?? .warning)
        let roots = SkillRoots.resolve(
            explicit: skills, environment: ProcessInfo.processInfo.environment,
            currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            home: FileManager.default.homeDirectoryForCurrentUser,
            executable: Bundle.main.executableURL)
        log.info("skill roots: \(roots.map(\.path).joined(separator: ", "))")
        let knowledge = InMemoryKnowledgeBase(roots: roots, log: log)
        // Parse the skills while the client is still starting up; `initialize` does not wait.
        DispatchQueue.global().async { knowledge.warmUp() }
        var configuration = MCPServer.Configuration()
        configuration.pageSize = pageSize
        let server = MCPServer(knowledge: knowledge, configuration: configuration, log: log)
        let status = StdioServer.run(server: server)
        if status != 0 { throw ExitCode(status) }
    }
}
