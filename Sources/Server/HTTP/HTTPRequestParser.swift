import Foundation

/// Upper bounds on what one request may hold; beyond them the request is refused, so a client
/// cannot make the server buffer without end.
public struct HTTPLimits: Sendable {
    /// Bytes of the request line and header fields together (431 beyond).
    public var headerBytes = 16 * 1024
    /// Header fields (431 beyond).
    public var headerCount = 100
    /// Bytes of the body, after chunked decoding (413 beyond).
    public var bodyBytes = 4 * 1024 * 1024

    /// The defaults: 16 KiB of headers, 100 fields, a 4 MiB body.
    public init() {}
}

/// Why a request could not be read; the connection is answered with `status` and closed.
public struct HTTPParseError: Error, Equatable, Sendable {
    /// The HTTP status to answer with.
    public var status: Int
    /// What is wrong, for the response body and the log.
    public var message: String

    static func bad(_ message: String) -> HTTPParseError { HTTPParseError(status: 400, message: message) }
}

/// Reads HTTP/1.1 requests from a byte stream: the request line, header fields, and a body framed
/// by `Content-Length` or `Transfer-Encoding: chunked`, within ``HTTPLimits``. Feed bytes with
/// ``append(_:)``, take whole requests with ``next()``; several requests may be pipelined.
public struct HTTPRequestParser: Sendable {
    public let limits: HTTPLimits
    private var buffer: [UInt8] = []
    private var continueSent = false

    /// A parser enforcing `limits`.
    public init(limits: HTTPLimits = HTTPLimits()) { self.limits = limits }

    /// Bytes received and not yet part of a returned request.
    public var bufferedCount: Int { buffer.count }

    /// Adds bytes read from the connection.
    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        buffer.append(contentsOf: bytes)
    }

    /// `true` once for a request whose headers are in and which asked `Expect: 100-continue`
    /// before sending its body: the caller then writes `HTTP/1.1 100 Continue`.
    public mutating func takeContinue() -> Bool {
        guard !continueSent, let end = Self.headerEnd(buffer), let head = try? parseHead(Array(buffer[..<end])),
            head.headers["Expect"]?.lowercased() == "100-continue"
        else { return false }
        continueSent = true
        return true
    }

    /// The next whole request, or `nil` while more bytes are needed; throws ``HTTPParseError``
    /// for a request that breaks the grammar or the limits.
    public mutating func next() throws -> HTTPRequest? {
        guard let end = Self.headerEnd(buffer) else {
            if buffer.count > limits.headerBytes {
                throw HTTPParseError(status: 431, message: "the request line and headers exceed \(limits.headerBytes) bytes")
            }
            return nil
        }
        if end > limits.headerBytes {
            throw HTTPParseError(status: 431, message: "the request line and headers exceed \(limits.headerBytes) bytes")
        }
        var request = try parseHead(Array(buffer[..<end]))
        let bodyStart = end + 4
        let consumed: Int
        if let encoding = request.headers["Transfer-Encoding"] {
            guard encoding.lowercased() == "chunked" else {
                throw HTTPParseError(status: 501, message: "Transfer-Encoding \(encoding) is not supported (only chunked)")
            }
            guard request.headers["Content-Length"] == nil else { throw HTTPParseError.bad("both Content-Length and Transfer-Encoding") }
            guard let (body, used) = try decodeChunked(from: bodyStart) else { return nil }
            request.body = body
            consumed = used
        } else {
            let length = try contentLength(request.headers)
            guard buffer.count - bodyStart >= length else { return nil }
            request.body = Array(buffer[bodyStart..<(bodyStart + length)])
            consumed = bodyStart + length
        }
        buffer.removeFirst(consumed)
        continueSent = false
        return request
    }

    /// The offset of the `\r\n\r\n` ending the head, if it has arrived.
    static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    private func parseHead(_ head: [UInt8]) throws -> HTTPRequest {
        guard !head.contains(0), let text = String(bytes: head, encoding: .utf8) else {
            throw HTTPParseError.bad("the request head is not text")
        }
        var lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, !requestLine[0].isEmpty, requestLine[0].allSatisfy(Self.isTokenCharacter),
            requestLine[1].hasPrefix("/") || requestLine[1] == "*"
        else {
            throw HTTPParseError.bad("malformed request line")
        }
        let version = String(requestLine[2])
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            if version.hasPrefix("HTTP/") { throw HTTPParseError(status: 505, message: "\(version) is not supported (HTTP/1.1 only)") }
            throw HTTPParseError.bad("malformed request line")
        }
        guard lines.count <= limits.headerCount else {
            throw HTTPParseError(status: 431, message: "more than \(limits.headerCount) header fields")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw HTTPParseError.bad("a header line without a colon") }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(Self.isTokenCharacter) else {
                throw HTTPParseError.bad("malformed header name \"\(name)\"")
            }
            headers.add(String(name), line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t")))
        }
        if version == "HTTP/1.1", headers["Host"] == nil { throw HTTPParseError.bad("HTTP/1.1 request without Host") }
        return HTTPRequest(method: String(requestLine[0]), target: String(requestLine[1]), version: version, headers: headers)
    }

    private func contentLength(_ headers: HTTPHeaders) throws -> Int {
        let values = Set(
            headers.values("Content-Length").flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
        guard let value = values.first else { return 0 }
        guard values.count == 1, !value.isEmpty, value.count <= 12, value.allSatisfy(\.isASCIIDigit), let length = Int(value) else {
            throw HTTPParseError.bad("malformed Content-Length")
        }
        guard length <= limits.bodyBytes else {
            throw HTTPParseError(status: 413, message: "a body of \(length) bytes exceeds \(limits.bodyBytes) bytes")
        }
        return length
    }

    /// Decodes a chunked body starting at `start`: the body and the bytes used up to the end of
    /// the trailers, or `nil` while incomplete.
    private func decodeChunked(from start: Int) throws -> ([UInt8], Int)? {
        var body: [UInt8] = []
        var at = start
        while true {
            guard let lineEnd = Self.lineEnd(buffer, from: at, limit: 1024) else {
                if buffer.count - at > 1024 { throw HTTPParseError.bad("a chunk-size line longer than 1024 bytes") }
                return nil
            }
            let sizeText =
                String(decoding: buffer[at..<lineEnd], as: UTF8.self).split(separator: ";", maxSplits: 1).first.map {
                    $0.trimmingCharacters(in: .whitespaces)
                } ?? ""
            guard !sizeText.isEmpty, sizeText.count <= 8, sizeText.allSatisfy(\.isHexDigit), let size = Int(sizeText, radix: 16) else {
                throw HTTPParseError.bad("malformed chunk size")
            }
            at = lineEnd + 2
            if size == 0 { break }
            guard body.count + size <= limits.bodyBytes else {
                throw HTTPParseError(status: 413, message: "a chunked body exceeds \(limits.bodyBytes) bytes")
            }
            guard buffer.count >= at + size + 2 else { return nil }
            guard buffer[at + size] == 13, buffer[at + size + 1] == 10 else { throw HTTPParseError.bad("a chunk not followed by CRLF") }
            body.append(contentsOf: buffer[at..<(at + size)])
            at += size + 2
        }
        // Trailer fields, ignored, up to an empty line.
        var trailerBytes = 0
        while true {
            guard let lineEnd = Self.lineEnd(buffer, from: at, limit: limits.headerBytes) else {
                if buffer.count - at > limits.headerBytes {
                    throw HTTPParseError(status: 431, message: "trailers exceed \(limits.headerBytes) bytes")
                }
                return nil
            }
            trailerBytes += lineEnd - at
            guard trailerBytes <= limits.headerBytes else {
                throw HTTPParseError(status: 431, message: "trailers exceed \(limits.headerBytes) bytes")
            }
            let empty = lineEnd == at
            at = lineEnd + 2
            if empty { return (body, at) }
        }
    }

    /// The offset of the next `\r\n` at or after `from`, looking at most `limit` bytes ahead.
    private static func lineEnd(_ bytes: [UInt8], from: Int, limit: Int) -> Int? {
        var i = from
        while i + 1 < bytes.count, i - from <= limit {
            if bytes[i] == 13, bytes[i + 1] == 10 { return i }
            i += 1
        }
        return nil
    }

    /// RFC 9110 `tchar`.
    static func isTokenCharacter(_ c: Character) -> Bool {
        guard c.isASCII, let v = c.asciiValue else { return false }
        if (48...57).contains(v) || (65...90).contains(v) || (97...122).contains(v) { return true }
        return "!#$%&'*+-.^_`|~".contains(c)
    }
}

extension Character {
    /// `0`-`9` only (not other Unicode digits).
    var isASCIIDigit: Bool { isASCII && isNumber }
}
