import ArgumentParser
import Foundation
import SkillServer

/// `skill serve`: the Model Context Protocol server over stdin/stdout.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the skills over the Model Context Protocol (JSON-RPC on stdin/stdout, or HTTP with --http).",
        discussion:
            "stdout carries protocol messages only; logs go to stderr. Exits 0 at end of input once every reply is written. With --http, serves MCP's Streamable HTTP transport at /mcp until SIGINT or SIGTERM, then finishes the replies in flight and exits 0."
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
            "With --http: a file holding the bearer token every request must send (Authorization: Bearer TOKEN).", valueName: "path"))
    var tokenFile: String?

    func validate() throws {
        if let http, HTTPAddress(http) == nil {
            throw ValidationError("--http must be HOST:PORT (for example 127.0.0.1:8080 or [::1]:8080), not \(http)")
        }
        if tokenFile != nil, http == nil { throw ValidationError("--token-file needs --http") }
        guard pageSize > 0 else { throw ValidationError("--page-size must be positive") }
        guard ServerLog.Level(name: logLevel) != nil else {
            throw ValidationError("--log-level must be one of off, error, warning, info, debug")
        }
    }

    func run() throws {
        let log = ServerLog(level: ServerLog.Level(name: logLevel) ?? .warning)
        if http != nil {
            // Over HTTP, SIGINT and SIGTERM mean "finish the replies in flight, exit 0": claim them
            // before the background build starts, so that its temporary-file cleanup (which ends
            // the process by the signal) leaves them to the transport; its files go at exit.
            signal(SIGINT, SIG_IGN)
            signal(SIGTERM, SIG_IGN)
        }
        // The knowledge base refreshes the index in the background, so `initialize` is answered at
        // once; afterwards the server watches the skills' folders (or polls once a second), off
        // the reply path.
        let index = try options.open()
        if http != nil {
            // Many clients at once: a search each per core, not one at a time.
            index.enableParallelSearches(readers: min(ProcessInfo.processInfo.activeProcessorCount, 8))
        }
        let knowledge = IndexKnowledgeBase(index: index, log: log)
        var configuration = MCPServer.Configuration()
        configuration.pageSize = pageSize
        guard let http, let address = HTTPAddress(http) else {
            let status = StdioServer.run(server: MCPServer(knowledge: knowledge, configuration: configuration, log: log), watch: !poll)
            if status != 0 { throw ExitCode(status) }
            return
        }
        var httpOptions = HTTPTransport.Options()
        (httpOptions.host, httpOptions.port) = (address.host, address.port)
        httpOptions.watch = !poll
        if let tokenFile { httpOptions.token = try readToken(tokenFile) }
        let sessionConfiguration = configuration
        let status = HTTPTransport.run(options: httpOptions, log: log) {
            MCPServer(knowledge: knowledge, configuration: sessionConfiguration, log: log)
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// The token in `path`, without surrounding whitespace; a clear error when unreadable or empty.
    private func readToken(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("--token-file \(path): cannot read the file")
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, !token.contains(where: { $0.isWhitespace }) else {
            throw ValidationError(
                "--token-file \(path): the file must hold one token (no spaces), not \(token.isEmpty ? "nothing" : "several words")")
        }
        return token
    }
}

/// `HOST:PORT`, `[V6]:PORT`: where `skill serve --http` listens.
struct HTTPAddress {
    var host: String
    var port: Int

    init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) } else if host.contains(":") { return nil }
        guard !host.isEmpty else { return nil }
        self.host = host
        self.port = port
    }
}
