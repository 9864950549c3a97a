import ArgumentParser
import Foundation
import SkillIndex
import SkillServer
import SkillServerHTTP

/// `skill-http`: the MCP server over Streamable HTTP, a binary of its own so that `skill` never
/// links SwiftNIO; `skill serve --http` runs it with the same options.
@main
struct SkillHTTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skill-http",
        abstract: "Serve the skills over the Model Context Protocol's Streamable HTTP transport (endpoint /mcp).",
        discussion:
            "The same server as 'skill serve --http', which runs this binary. Serves until SIGINT or SIGTERM, then stops accepting, answers the requests in flight (up to 5 s), closes the rest and exits 0. Off loopback a --token-file is required (or --insecure-no-auth)."
    )

    @Option(
        help: ArgumentHelp(
            "Listen at HOST:PORT (endpoint /mcp); bind to 127.0.0.1 unless a team must reach it.", valueName: "host:port"))
    var http: String = "127.0.0.1:8080"

    @Option(
        name: .customLong("skills"),
        help: ArgumentHelp("A folder of skills to index (repeatable). Default: as 'skill serve'.", valueName: "dir"))
    var skills: [String] = []

    @Option(help: ArgumentHelp("The index file. Default: as 'skill serve'.", valueName: "path"))
    var index: String?

    @Flag(help: "Leave out the skills of Claude Code plugins (~/.claude/plugins) from the default roots.")
    var noPlugins = false

    @Option(help: "Log level on stderr: off, error, warning, info, debug.")
    var logLevel: String = "warning"

    @Option(help: ArgumentHelp("Items per page of resources/list and prompts/list.", visibility: .hidden))
    var pageSize: Int = 50

    @Flag(help: "Check the skills for changes once a second instead of watching their folders.")
    var poll = false

    @Option(
        help: ArgumentHelp(
            "A file holding the bearer token every request must send (Authorization: Bearer TOKEN); mode 600.", valueName: "path"))
    var tokenFile: String?

    @Flag(help: "Allow a non-loopback --http address without --token-file: anyone who can reach it is served.")
    var insecureNoAuth = false

    @Option(
        help: ArgumentHelp("Seconds a client may take to send a request's head, or sit idle, before it is closed.", visibility: .hidden))
    var requestTimeout: Double = 10

    @Option(help: ArgumentHelp("Seconds a stop waits for the replies in flight.", visibility: .hidden))
    var shutdownGrace: Double = 5

    @Option(help: ArgumentHelp("Sessions open at once, and per client address.", visibility: .hidden))
    var maxSessions: Int = 1000

    @Option(help: ArgumentHelp("Sessions open at once per client address.", visibility: .hidden))
    var maxSessionsPerClient: Int = 100

    @Option(help: ArgumentHelp("Connections open at once per client address.", visibility: .hidden))
    var maxConnectionsPerClient: Int = 1024

    func validate() throws {
        guard let address = ListenAddress(http) else {
            throw ValidationError("--http must be HOST:PORT (for example 127.0.0.1:8080 or [::1]:8080), not \(http)")
        }
        guard pageSize > 0 else { throw ValidationError("--page-size must be positive") }
        guard requestTimeout > 0, shutdownGrace >= 0, maxSessions > 0, maxSessionsPerClient > 0, maxConnectionsPerClient > 0 else {
            throw ValidationError("the timeouts and session caps must be positive")
        }
        guard ServerLog.Level(name: logLevel) != nil else {
            throw ValidationError("--log-level must be one of off, error, warning, info, debug")
        }
        if let refusal = HTTPAccessPolicy.bindRefusal(host: address.host, hasToken: tokenFile != nil, insecure: insecureNoAuth) {
            throw ValidationError(refusal)
        }
    }

    func run() async throws {
        let log = ServerLog(level: ServerLog.Level(name: logLevel) ?? .warning)
        // SIGINT and SIGTERM mean "finish the replies in flight, exit 0": claim them before the
        // background build starts, so that its temporary-file cleanup (which ends the process by
        // the signal) leaves them to the transport; its files go at exit.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        guard let address = ListenAddress(http) else { throw ExitCode(64) }
        var options = HTTPTransport.Options()
        (options.host, options.port) = (address.host, address.port)
        options.watch = !poll
        options.requestTimeout = requestTimeout
        options.shutdownGrace = shutdownGrace
        options.maxSessions = maxSessions
        options.maxSessionsPerClient = maxSessionsPerClient
        options.maxConnectionsPerClient = maxConnectionsPerClient
        if let tokenFile { options.token = try readToken(tokenFile) }
        if !HTTPAccessPolicy.isLoopback(address.host), options.token == nil {
            log.warning("--insecure-no-auth: serving anyone who can reach \(http), without a token")
        }
        let skillIndex: SkillIndex
        do {
            skillIndex = SkillIndex(configuration: try IndexConfiguration.resolve(skills: skills, index: index, plugins: !noPlugins))
        } catch {
            FileHandle.standardError.write(Data("error: \(error.localizedDescription)\n".utf8))
            throw ExitCode(1)
        }
        // Many clients at once: a search each per core, not one at a time.
        skillIndex.enableParallelSearches(readers: min(ProcessInfo.processInfo.activeProcessorCount, 8))
        let knowledge = IndexKnowledgeBase(index: skillIndex, log: log)
        var configuration = MCPServer.Configuration()
        configuration.pageSize = pageSize
        let sessionConfiguration = configuration
        let status = await HTTPTransport.run(options: options, log: log) {
            MCPServer(knowledge: knowledge, configuration: sessionConfiguration, log: log)
        }
        knowledge.close()
        if status != 0 { throw ExitCode(status) }
    }

    /// The token in `path`, without surrounding whitespace; a clear error when unreadable, empty,
    /// or readable by other users.
    private func readToken(_ path: String) throws -> String {
        var info = stat()
        guard stat(path, &info) == 0, let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)
        else {
            throw ValidationError("--token-file \(path): cannot read the file")
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, !token.contains(where: { $0.isWhitespace }) else {
            throw ValidationError(
                "--token-file \(path): the file must hold one token (no spaces), not \(token.isEmpty ? "nothing" : "several words")")
        }
        if let refusal = HTTPAccessPolicy.tokenFileRefusal(path: path, mode: UInt16(info.st_mode & 0o7777)) {
            throw ValidationError(refusal)
        }
        return token
    }
}
