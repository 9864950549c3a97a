import Foundation
import Testing

@testable import SkillServer

#if canImport(Glibc)
    import Glibc
#endif

/// The socket server on a loopback port: keep-alive, limits on the wire, graceful stop.
@Suite struct HTTPServerTests {
    /// A started server and its port; `run()` goes on in the background until `stop()`.
    func start(
        limits: HTTPLimits = HTTPLimits(), keepAliveInterval: Double = 15, _ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws -> (HTTPServer, Int, DispatchGroup) {
        let server = HTTPServer(limits: limits, keepAliveInterval: keepAliveInterval, log: ServerLog(level: .off), handler: handler)
        let port = try server.bind(host: "127.0.0.1", port: 0)
        let done = DispatchGroup()
        done.enter()
        Thread {
            server.run()
            done.leave()
        }.start()
        return (server, port, done)
    }

    /// A connected client socket.
    func connect(_ port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(rc == 0)
        return fd
    }

    func send(_ fd: Int32, _ text: String) {
        #expect(HTTPServer.write(fd, Array(text.utf8)))
    }

    /// Reads until what arrived contains `text` (or the peer closes, or 30 s pass without a byte).
    func read(_ fd: Int32, until text: String, into received: inout [UInt8]) -> String {
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains(text) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// A server whose every request opens `stream`, and a client that sent it a GET in `version`
    /// and read the response's head (into `received`).
    func openStream(_ stream: HTTPEventStream, version: String = "HTTP/1.1", keepAliveInterval: Double = 15) throws -> (
        server: HTTPServer, fd: Int32, done: DispatchGroup, received: [UInt8]
    ) {
        let (server, port, done) = try start(keepAliveInterval: keepAliveInterval) { _ in
            HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "text/event-stream")]), stream: stream)
        }
        let fd = connect(port)
        send(fd, "GET /mcp \(version)\r\nHost: x\r\n\r\n")
        var received: [UInt8] = []
        _ = read(fd, until: "\r\n\r\n", into: &received)
        return (server, fd, done, received)
    }

    /// Reads until the peer closes.
    func readAll(_ fd: Int32) -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        close(fd)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func keepAliveAnswersEachRequestThenCloses() throws {
        let (server, port, done) = try start { .text(200, "echo \($0.body.count)") }
        let fd = connect(port)
        send(
            fd,
            "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcPOST /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\nab\r\n0\r\n\r\n"
        )
        let text = readAll(fd)
        #expect(
            text
                == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 7\r\n\r\necho 3\nHTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 7\r\nConnection: close\r\n\r\necho 2\n"
        )
        server.stop()
        done.wait()
    }

    @Test func oversizedHeadersAre431AndClose() throws {
        var limits = HTTPLimits()
        limits.headerBytes = 128
        let (server, port, done) = try start(limits: limits) { _ in .text(200, "no") }
        let fd = connect(port)
        send(fd, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 300))\r\n\r\n")
        let text = readAll(fd)
        #expect(text.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        #expect(text.hasSuffix("Request Header Fields Too Large: the request line and headers exceed 128 bytes\n"))
        server.stop()
        done.wait()
    }

    @Test func expectContinueGetsAnInterimReply() throws {
        let (server, port, done) = try start { .text(200, String(decoding: $0.body, as: UTF8.self)) }
        let fd = connect(port)
        send(fd, "POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\n")
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        #expect(String(decoding: buffer[0..<max(n, 0)], as: UTF8.self) == "HTTP/1.1 100 Continue\r\n\r\n")
        send(fd, "hi")
        #expect(readAll(fd).hasSuffix("\r\n\r\nhi\n"))
        server.stop()
        done.wait()
    }

    @Test func stopFinishesTheReplyInFlight() throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let (server, port, done) = try start { _ in
            entered.signal()
            release.wait()
            return .text(200, "finished")
        }
        let idle = connect(port)
        let busy = connect(port)
        send(busy, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        entered.wait()
        server.stop()
        // run() waits for the reply in flight.
        #expect(done.wait(timeout: .now() + 0.5) == .timedOut)
        release.signal()
        done.wait()
        // The busy connection got its whole reply, marked as the last; the idle one was closed.
        #expect(readAll(busy).hasSuffix("Connection: close\r\n\r\nfinished\n"))
        #expect(readAll(idle) == "")
    }

    @Test func aStreamIsChunkedKeptAliveAndEnded() throws {
        let stream = HTTPEventStream()
        let (server, fd, done, head) = try openStream(stream, keepAliveInterval: 0.05)
        var received = head
        #expect(
            read(fd, until: "8\r\n: ping\n\n\r\n", into: &received).hasPrefix(
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n: ping\n\n\r\n"))
        stream.send(Array("data: x\n\n".utf8))
        #expect(read(fd, until: "9\r\ndata: x\n\n\r\n", into: &received).hasSuffix("9\r\ndata: x\n\n\r\n"))
        // Closing the stream ends the chunked body; the connection stays open for the next request.
        stream.close()
        #expect(read(fd, until: "0\r\n\r\n", into: &received).hasSuffix("0\r\n\r\n"))
        close(fd)
        server.stop()
        done.wait()
    }

    @Test func stopEndsAnOpenStream() throws {
        let stream = HTTPEventStream()
        let (server, fd, done, _) = try openStream(stream)
        server.stop()
        done.wait()
        #expect(!stream.isOpen)
        #expect(readAll(fd).hasSuffix("0\r\n\r\n"))
    }

    @Test func aClientHangingUpClosesItsStream() throws {
        let stream = HTTPEventStream()
        let (server, fd, done, received) = try openStream(stream, version: "HTTP/1.0")
        // HTTP/1.0 has no chunked coding: the body lasts until the connection closes.
        #expect(
            String(decoding: received, as: UTF8.self) == "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
        close(fd)
        // The server notices the hang-up within its 0.2 s poll; bounded at 30 s, not timed.
        let deadline = Date(timeIntervalSinceNow: 30)
        while stream.isOpen, Date() < deadline { usleep(10_000) }
        #expect(!stream.isOpen)
        #expect(!stream.send([1]))
        server.stop()
        done.wait()
    }
}
