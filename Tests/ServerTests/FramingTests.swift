import Foundation
import Testing

@testable import SkillServer

@Suite struct FramingTests {
    @Test func splitsOnNewlinesAcrossChunks() {
        var f = LineFramer()
        #expect(f.append(Data("{\"a\":".utf8)) == [])
        #expect(f.append(Data("1}\r\n\n  \n{\"b\":2}\n{\"c\"".utf8)) == [.line(Data("{\"a\":1}".utf8)), .line(Data("{\"b\":2}".utf8))])
        #expect(f.finish() == [.line(Data("{\"c\"".utf8))])
        #expect(f.finish() == [])
    }

    @Test func dropsOversizedLinesAndKeepsGoing() {
        var f = LineFramer(limit: 8)
        #expect(f.append(Data("0123456".utf8)) == [])
        #expect(f.append(Data("789abc".utf8)) == [])
        #expect(f.append(Data("def\nok\n".utf8)) == [.oversized(byteCount: 16), .line(Data("ok".utf8))])
    }

    @Test func keepsInvalidUTF8ForTheParserToReject() {
        var f = LineFramer()
        #expect(f.append(Data([0xFF, 0xFE, 0x0A])) == [.line(Data([0xFF, 0xFE]))])
    }
}
