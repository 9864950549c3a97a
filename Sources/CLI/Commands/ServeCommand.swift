import ArgumentParser
import Foundation
import SkillServer

/// `skill serve`: the Model Context Protocol server over stdin/stdout.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the skills over the Model Context Protocol (JSON-RPC on stdin/stdout, or HTTP with --http).",
        discussion:
            "stdout carries protocol messages only; logs go to stderr. Exits 0 at end of input once every reply is written. With --http, runs skill-http (installed beside skill) with the same options: MCP's Streamable HTTP transport at /mcp until SIGINT or SIGTERM, then the replies in flight are finished (up to 5 s) and it exits 0; off loopback it needs --token-file or --insecure-no-auth."
    )

    @OptionGroup var options: IndexOptions

    @Option(help: "Log level on stderr: off, error, warning, info, debug.")
    var logLevel: String = "warning"

    @Option(help: ArgumentHelp("Items per page of resources/list and prompts/list.", visibility: .hidden))
    var pageSize: Int = 50

    @Option(
        help: ArgumentHelp(
            "Serve MCP over HTTP at HOST:PORT (endpoint /mcp) instead of stdio; bind to 127.0.0.1 unless a team must reach it.",
            valueName: "host:port"))
    var http: String?

    @Flag(
        help:
            "Check the skills for changes once a second instead of watching their folders (inotify does not see changes made by other machines on a network file system)."
    )
    var poll = false

    @Option(
        help: ArgumentHelp(
            "With --http: a file holding the bearer token every request must send (Authorization: Bearer TOKEN); mode 600.",
            valueName: "path"))
    var tokenFile: String?

    @Flag(help: "With --http: allow a non-loopback address without --token-file (anyone who can reach it is served).")
    var insecureNoAuth = false

    func validate() throws {
        if let http, ListenAddress(http) == nil {
            throw ValidationError("--http must be HOST:PORT (for example 127.0.0.1:8080 or [::1]:8080), not \(http)")
        }
        if tokenFile != nil, http == nil { throw ValidationError("--token-file needs --http") }
        if insecureNoAuth, http == nil { throw ValidationError("--insecure-no-auth needs --http") }
        guard pageSize > 0 else { throw ValidationError("--page-size must be positive") }
        guard ServerLog.Level(name: logLevel) != nil else {
            throw ValidationError("--log-level must be one of off, error, warning, info, debug")
        }
    }

    func run() throws {
        if let http {
            // The HTTP transport is the `skill-http` binary (SwiftNIO), kept out of this one.
            try HTTPServerBinary.exec(arguments: httpArguments(http))
        }
        let log = ServerLog(level: ServerLog.Level(name: logLevel) ?? .warning)
        // The knowledge base refreshes the index in the background, so `initialize` is answered at
        // once; afterwards the server watches the skills' folders (or polls once a second), off
        // the reply path.
        let index = try options.open()
        let knowledge = IndexKnowledgeBase(index: index, log: log)
        var configuration = MCPServer.Configuration()
        configuration.pageSize = pageSize
        let status = StdioServer.run(server: MCPServer(knowledge: knowledge, configuration: configuration, log: log), watch: !poll)
        knowledge.close()
        if status != 0 { throw ExitCode(status) }
    }

    /// These options as `skill-http` takes them.
    private func httpArguments(_ http: String) -> [String] {
        var arguments = ["--http", http, "--log-level", logLevel, "--page-size", String(pageSize)]
        for folder in options.skills { arguments += ["--skills", folder] }
        if let index = options.index { arguments += ["--index", index] }
        if options.noPlugins { arguments.append("--no-plugins") }
        if poll { arguments.append("--poll") }
        if let tokenFile { arguments += ["--token-file", tokenFile] }
        if insecureNoAuth { arguments.append("--insecure-no-auth") }
        return arguments
    }
}

/// `skill-http`, installed beside `skill` (`make install`, or `swift build` puts both in
/// `.build/debug`): `skill serve --http` replaces itself with it.
enum HTTPServerBinary {
    /// Replaces this process with `skill-http arguments…`; returns only by throwing, when the
    /// binary is missing or cannot be run.
    static func exec(arguments: [String]) throws -> Never {
        let path = beside()
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw CLIError(
                message:
                    "skill serve --http runs skill-http, which is not installed beside skill (\(path)): run 'make install', or 'swift build --product skill-http' in a checkout"
            )
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        throw CLIError(message: "cannot run \(path): \(reason)")
    }

    /// `skill-http` in the folder of the running `skill` (its real path, symlinks resolved).
    static func beside() -> String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let executable = me.path == "/proc/self/exe" ? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath() : me
        return executable.deletingLastPathComponent().appendingPathComponent("skill-http").path
    }
}
