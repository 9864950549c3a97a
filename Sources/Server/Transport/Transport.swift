import Foundation
import SkillParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the server's messages go: one JSON-RPC message per call. Implementations are called
/// from several threads and keep each message whole.
public protocol MessageSink: Sendable {
    func send(_ message: JSONValue)
}

/// Writes each message as one line to a file descriptor (stdout), with `write(2)`: no buffering,
/// so nothing owed is lost at exit.
public final class FileDescriptorSink: MessageSink, Sendable {
    private let fd: Int32
    /// Whether a write failed; the lock also keeps each message's writes together.
    private let broken = Locked(false)

    /// Writes to `fd`, which the sink does not close.
    public init(fd: Int32) { self.fd = fd }

    /// `true` once a write failed (the client closed its end).
    public var isBroken: Bool {
        broken.withLock { $0 }
    }

    public func send(_ message: JSONValue) {
        var bytes = JSONWriter.data(message)
        bytes.append(UInt8(ascii: "\n"))
        broken.withLock { broken in
            guard !broken else { return }
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        broken = true
                        return
                    }
                    offset += n
                }
            }
        }
    }
}

/// An in-memory transport for tests: feed lines in, read messages out.
public final class MemoryTransport: MessageSink, @unchecked Sendable {  // `connection` is set in `init`, then only read
    private let sent = Locked([JSONValue]())
    /// The connection the transport feeds.
    public private(set) var connection: ServerConnection!

    /// A transport with its own connection to `server`.
    public init(server: MCPServer) {
        connection = ServerConnection(server: server, sink: self)
    }

    public func send(_ message: JSONValue) {
        sent.withLock { $0.append(message) }
    }

    /// Sends raw bytes, framed as the stdio transport frames them.
    public func write(_ bytes: String) {
        var framer = LineFramer()
        for line in framer.append(Data(bytes.utf8)) + framer.finish() { connection.receive(line) }
    }

    /// Sends one message as a line.
    public func write(_ message: JSONValue) {
        connection.receive(.line(JSONWriter.data(message)))
    }

    /// Waits until every owed reply is written, then returns and forgets what was sent.
    public func drain() -> [JSONValue] {
        connection.finish()
        return sent.withLock { sent in
            defer { sent = [] }
            return sent
        }
    }
}

/// Serves MCP over a pair of file descriptors (stdin and stdout) until end of input.
public enum StdioServer {
    /// Reads `input` until end of file, answering every message; returns once every reply owed
    /// has been written (exit status 0).
    /// - Parameters:
    ///   - protectStdout: when `output` is stdout, moves it to a private descriptor and points
    ///     fd 1 at stderr, so a stray write by any library cannot corrupt the protocol.
    ///   - freshnessInterval: seconds between freshness checks when the folders are not
    ///     watched; `nil`: no checks at all.
    ///   - watch: watch the skills' folders (inotify) rather than poll.
    public static func run(
        server: MCPServer, input: Int32 = 0, output: Int32 = 1, protectStdout: Bool = true, freshnessInterval: Double? = 1,
        watch: Bool = true, lineLimit: Int = LineFramer.defaultLimit
    ) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        var out = output
        if protectStdout, output == 1 {
            let moved = dup(1)
            if moved >= 0 {
                out = moved
                dup2(2, 1)
            }
        }
        let sink = FileDescriptorSink(fd: out)
        let connection = ServerConnection(server: server, sink: sink)
        if let freshnessInterval { connection.startFreshnessChecks(every: freshnessInterval, watch: watch) }
        var framer = LineFramer(limit: lineLimit)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !sink.isBroken {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                server.log.error("reading stdin failed: errno \(errno)")
                break
            }
            if n == 0 { break }
            let lines = buffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            for line in lines { connection.receive(line) }
        }
        for line in framer.finish() { connection.receive(line) }
        connection.close()
        server.log.info("end of input: every reply written, exiting")
        return 0
    }
}
