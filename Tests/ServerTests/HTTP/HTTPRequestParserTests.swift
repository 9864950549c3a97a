import Foundation
import Testing

@testable import SkillServer

@Suite struct HTTPRequestParserTests {
    func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) throws -> [HTTPRequest] {
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Array(text.utf8))
        var out: [HTTPRequest] = []
        while let r = try parser.next() { out.append(r) }
        return out
    }

    func failure(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPParseError? {
        do {
            _ = try parse(text, limits: limits)
            return nil
        } catch {
            return error as? HTTPParseError
        }
    }

    @Test func contentLengthBodyAndPipelinedRequests() throws {
        let requests = try parse(
            "POST /mcp?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX-A:  spaced \r\n\r\nhelloGET /mcp HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
        )
        #expect(requests.count == 2)
        #expect(requests[0].method == "POST")
        #expect(requests[0].path == "/mcp")
        #expect(requests[0].target == "/mcp?x=1")
        #expect(requests[0].headers["x-a"] == "spaced")
        #expect(requests[0].body == Array("hello".utf8))
        #expect(requests[0].keepAlive)
        #expect(requests[1].method == "GET")
        #expect(requests[1].body.isEmpty)
        #expect(!requests[1].keepAlive)
    }

    @Test func waitsForTheWholeRequestByteByByte() throws {
        let text = "POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
        var parser = HTTPRequestParser()
        var got: [HTTPRequest] = []
        for byte in text.utf8 {
            parser.append([byte])
            if let r = try parser.next() { got.append(r) }
        }
        #expect(got.count == 1)
        #expect(got.first?.body == Array("abc".utf8))
        #expect(parser.bufferedCount == 0)
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() throws {
        let requests = try parse(
            "POST /mcp HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nX-Trailer: y\r\n\r\n")
        #expect(requests.count == 1)
        #expect(requests[0].body == Array("Wikipedia".utf8))
    }

    @Test func http10ClosesUnlessKeepAlive() throws {
        #expect(try parse("GET / HTTP/1.0\r\n\r\n")[0].keepAlive == false)
        #expect(try parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")[0].keepAlive == true)
    }

    @Test func expectContinueIsOfferedOnce() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("POST /mcp HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        let early = try parser.next()
        #expect(early == nil)
        let first = parser.takeContinue()
        let second = parser.takeContinue()
        #expect(first)
        #expect(!second)
        parser.append(Array("{}".utf8))
        let request = try parser.next()
        #expect(request?.body == Array("{}".utf8))
    }

    @Test func boundedSizes() {
        var small = HTTPLimits()
        small.headerBytes = 64
        small.bodyBytes = 8
        small.headerCount = 2
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "a", count: 100))", limits: small)?.status == 431)
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\n\r\n", limits: small)?.status == 431)
        #expect(
            failure("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n", limits: small)
                == HTTPParseError(status: 413, message: "a body of 9 bytes exceeds 8 bytes"))
        #expect(
            failure("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n12345\r\n5\r\n12345\r\n0\r\n\r\n", limits: small)?
                .status == 413)
        #expect(
            failure(
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\(String(repeating: "0", count: 2000))", limits: small)?
                .status == 400)
    }

    @Test func malformedRequestsAreRefused() {
        #expect(failure("GARBAGE\r\n\r\n")?.status == 400)
        #expect(failure("GET / HTTP/2.0\r\nHost: a\r\n\r\n")?.status == 505)
        #expect(failure("GET / HTTP/1.1\r\n\r\n") == HTTPParseError(status: 400, message: "HTTP/1.1 request without Host"))
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n")?.status == 400)
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\nno colon\r\n\r\n")?.status == 400)
        #expect(failure("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n")?.status == 400)
        #expect(failure("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")?.status == 400)
        #expect(failure("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n")?.status == 400)
        #expect(failure("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n")?.status == 501)
        #expect(failure("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")?.status == 400)
    }

    @Test func responseSerialization() {
        var headers = HTTPHeaders()
        headers.add("Mcp-Session-Id", "s1")
        let bytes = HTTPResponse.json(200, ["ok": true], headers: headers).serialized(keepAlive: false)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "HTTP/1.1 200 OK\r\nMcp-Session-Id: s1\r\nContent-Type: application/json\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{\"ok\":true}"
        )
    }
}
