import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on plain sockets: one thread per connection (at most
/// ``maxConnections``), keep-alive, pipelining, bounded requests (``HTTPLimits``), idle and slow
/// clients timed out, streamed responses (``HTTPEventStream``) kept alive by comments, and a
/// graceful stop that lets every request being answered finish and ends every stream.
public final class HTTPServer: @unchecked Sendable {
    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    public let limits: HTTPLimits
    /// Connections served at once; one more is answered 503 and closed.
    public let maxConnections: Int
    /// Seconds a kept-alive connection may sit idle, and a started request may take to arrive.
    public let idleTimeout: Double
    /// Seconds a streamed response may go without a write before a keep-alive comment
    /// (`: ping`) is sent, so that proxies and clients do not drop it as idle.
    public let keepAliveInterval: Double
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let log: ServerLog
    private var listener: Int32 = -1
    private let lock = NSCondition()
    private var stopping = false
    private var active = 0

    /// A server answering every request with `handler`, called from many threads at once.
    public init(
        limits: HTTPLimits = HTTPLimits(), maxConnections: Int = 256, idleTimeout: Double = 60, keepAliveInterval: Double = 15,
        log: ServerLog, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
        self.limits = limits
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.keepAliveInterval = keepAliveInterval
        self.log = log
        self.handler = handler
    }

    /// Binds and listens on `host`:`port` (a numeric address or a name; port 0 picks a free
    /// one); returns the port bound.
    public func bind(host: String, port: Int) throws -> Int {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var info: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(HTTPAccessPolicy.bare(host), String(port), &hints, &info)
        guard rc == 0, let first = info else {
            throw StartError(description: "cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(info) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { throw StartError(description: "socket: \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard systemBind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw StartError(description: "cannot listen on \(host):\(port): \(why)")
        }
        guard listen(fd, 128) == 0 else {
            close(fd)
            throw StartError(description: "listen: \(String(cString: strerror(errno)))")
        }
        listener = fd
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let bound =
            address.ss_family == sa_family_t(AF_INET6)
            ? withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port } }
            : withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port } }
        return Int(UInt16(bigEndian: bound))
    }

    /// Accepts connections until ``stop()``; then waits for every connection to finish the
    /// request it is answering, and returns.
    public func run() {
        signal(SIGPIPE, SIG_IGN)
        while !isStopping {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let fd = accept(listener, nil, nil)
            if fd < 0 { continue }
            lock.lock()
            let full = active >= maxConnections
            if !full { active += 1 }
            lock.unlock()
            if full {
                log.warning("refused a connection: \(maxConnections) already open")
                let busy = HTTPResponse.text(503, "Service Unavailable: too many connections")
                _ = Self.write(fd, busy.serialized(keepAlive: false))
                close(fd)
                continue
            }
            let thread = Thread { [self] in
                serve(fd)
                close(fd)
                lock.lock()
                active -= 1
                lock.broadcast()
                lock.unlock()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        close(listener)
        lock.lock()
        while active > 0 { lock.wait() }
        lock.unlock()
    }

    /// Stops accepting; idle connections close, busy ones after their reply, streams end.
    public func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// One connection: requests in order until the client closes, asks to, idles too long,
    /// breaks the grammar or the limits, or the server stops.
    private func serve(_ fd: Int32) {
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var parser = HTTPRequestParser(limits: limits)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var waited = 0.0
        let connection = HTTPConnection(fd: fd)
        while true {
            do {
                while var request = try parser.next() {
                    request.connection = connection
                    let response = handler(request)
                    if let stream = response.stream {
                        // HTTP/1.0 has no chunked coding: its stream ends when the connection does.
                        let chunked = request.version == "HTTP/1.1"
                        let keepAlive = chunked && request.keepAlive && !isStopping
                        guard Self.write(fd, response.serialized(keepAlive: keepAlive, chunked: chunked)) else {
                            stream.close()
                            return
                        }
                        guard pump(stream, to: fd, chunked: chunked), keepAlive, !isStopping else { return }
                        continue
                    }
                    let keepAlive = request.keepAlive && !isStopping
                    guard Self.write(fd, response.serialized(keepAlive: keepAlive)), keepAlive else { return }
                }
            } catch let error as HTTPParseError {
                log.info("bad request: \(error.message)")
                _ = Self.write(
                    fd,
                    HTTPResponse.text(error.status, "\(HTTPResponse.reason(error.status)): \(error.message)").serialized(keepAlive: false))
                return
            } catch {
                return
            }
            if parser.takeContinue() {
                guard Self.write(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return }
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 200)
            if ready == 0 {
                waited += 0.2
                if parser.bufferedCount == 0, isStopping || waited >= idleTimeout { return }
                if parser.bufferedCount > 0, waited >= idleTimeout {
                    _ = Self.write(fd, HTTPResponse.text(408, "Request Timeout").serialized(keepAlive: false))
                    return
                }
                continue
            }
            if ready < 0 { if errno == EINTR { continue } else { return } }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            guard n > 0 else { return }
            waited = 0
            parser.append(buffer[0..<n])
        }
    }

    /// Writes `stream` to `fd` as it comes, with a keep-alive comment after ``keepAliveInterval``
    /// seconds without a write, until it is closed (`true` once its chunked body is ended) or the
    /// client hangs up or a write fails (`false`; the stream is closed). A stop closes it.
    private func pump(_ stream: HTTPEventStream, to fd: Int32, chunked: Bool) -> Bool {
        var lastWrite = Date()
        func put(_ bytes: [UInt8]) -> Bool {
            lastWrite = Date()
            let framed = chunked ? Array("\(String(bytes.count, radix: 16))\r\n".utf8) + bytes + Array("\r\n".utf8) : bytes
            return Self.write(fd, framed)
        }
        while true {
            switch stream.next(waitingUpTo: 0.2) {
            case .bytes(let bytes):
                guard put(bytes) else {
                    stream.close()
                    return false
                }
            case .ended:
                return chunked && Self.write(fd, Array("0\r\n\r\n".utf8))
            case .idle:
                if isStopping {
                    stream.close()
                } else if Self.peerHungUp(fd)
                    || (Date().timeIntervalSince(lastWrite) >= keepAliveInterval && !put(Array(": ping\n\n".utf8)))
                {
                    stream.close()
                    return false
                }
            }
        }
    }

    /// Whether the client closed its end (a read would return end of file). Bytes it sent
    /// (a pipelined request) do not count: they wait until the stream ends.
    static func peerHungUp(_ fd: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Writes all of `bytes`; `false` when the peer is gone.
    static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }
}

/// The C `bind(2)`, which ``HTTPServer/bind(host:port:)`` hides inside the class.
private func systemBind(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    bind(fd, address, length)
}
