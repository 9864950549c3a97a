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

    @OptionGroup var options: IndexOptions

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
        // The knowledge base refreshes the index in the background, so `initialize` is answered at
        // once; afterwards the server checks freshness at most once a second, off the reply path.
        let knowledge = IndexKnowledgeBase(index: try options.open(), log: log)
        var configuration = MCPServer.Configuration()
        configuration.pageSize = pageSize
        let server = MCPServer(knowledge: knowledge, configuration: configuration, log: log)
        let status = StdioServer.run(server: server)
        if status != 0 { throw ExitCode(status) }
    }
}
