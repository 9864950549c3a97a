import Foundation
import SkillParser
import Testing

@testable import SkillIndex
@testable import SkillServer

@Suite struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Data(text.utf8)) }

    func rejects(_ bytes: [UInt8]) -> Bool {
        (try? JSONParser.parse(Data(bytes))) == nil
    }

    @Test func values() throws {
        #expect(
            try parse(#" {"a": [1, -2.5, "x", null, true, false, {}], "b": {"c": []}} "#)
                == ["a": [1, .double(-2.5), "x", .null, true, false, [:]], "b": ["c": []]])
        #expect(try parse("\"\"") == "")
        #expect(try parse("0") == 0)
        #expect(try parse("[[]]\r\n") == [[]])
    }

    @Test func escapes() throws {
        #expect(try parse(#""\" \\ \/ \b \f \n \r \t""#) == "\" \\ / \u{8} \u{C} \n \r \t")
        #expect(try parse(#""\u00e9\u00E9 \u0000 \u2028""#) == "éé \u{0} \u{2028}")
        #expect(try parse(#""caf\u00e9 au lait""#) == "café au lait")
        #expect(try parse("\"raw é 😀\"") == "raw é 😀")
        #expect(try parse(#"{"k\n": 1}"#) == ["k\n": 1])
    }

    @Test func surrogatePairs() throws {
        #expect(try parse(#""\ud83d\ude00""#) == "😀")
        #expect(try parse(#""\uDBFF\uDFFF""#) == "\u{10FFFF}")
        for lone in [#""\ud800""#, #""\udc00""#, #""\ud83dx""#, #""\ud83d\u0041""#, #""\ud83d\ude00\ud83d""#] {
            #expect(throws: JSONParser.Failure.self) { try parse(lone) }
        }
    }

    @Test func numbers() throws {
        #expect(try parse("9223372036854775807") == .int(Int.max))
        #expect(try parse("-9223372036854775808") == .int(Int.min))
        #expect(try parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try parse("12345678901234567890") == .double(1.2345678901234567e19))
        #expect(try parse("9007199254740993") == .int(9_007_199_254_740_993))
        #expect(try parse("3.0") == 3)
        #expect(try parse("1e2") == 100)
        #expect(try parse("-0.0") == 0)
        #expect(try parse("1E-2") == .double(0.01))
        #expect(try parse("1e+2") == 100)
        #expect(try parse("100000000000000000000.0") == .double(1e20))
        #expect(try parse("1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
        for bad in ["1e400", "-1e400", "01", "-01", "-", "2.", ".5", "1e", "+1", "NaN", "Infinity", "0x10"] {
            #expect(throws: JSONParser.Failure.self, "\(bad)") { try parse(bad) }
        }
    }

    @Test func nesting() throws {
        let deepest = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
        #expect(try parse(deepest).arrayValue != nil)
        let tooDeep = "[" + deepest + "]"
        #expect(throws: JSONParser.Failure.self) { try parse(tooDeep) }
        let objects =
            String(repeating: #"{"a":"#, count: JSONParser.maxDepth + 1) + "1" + String(repeating: "}", count: JSONParser.maxDepth + 1)
        #expect(throws: JSONParser.Failure.self) { try parse(objects) }
    }

    @Test func invalidInput() {
        for bad in [
            "", " ", "{", "}", "[1 2]", "[,]", "[1,,2]", "{,}", "[ , ]", "{\"a\" 1}", "{\"a\":}", "{1:2}", "{} x",
            "tru", "nul", "\"abc", "\"a\\x\"", "\"\\u12\"", "\"\\uZZZZ\"", "[1,]]", "'a'", "1\u{0B}",
        ] {
            #expect(throws: JSONParser.Failure.self, "\(bad)") { try parse(bad) }
        }
        #expect(rejects([0x22, 0xFF, 0x22]), "invalid UTF-8")
        #expect(rejects([0x22, 0xC3, 0x22]), "truncated UTF-8")
        #expect(rejects([0x22, 0x09, 0x22]), "a raw control character")
        #expect(rejects([0x22, 0x5C, 0x6E, 0xFF, 0x22]), "invalid UTF-8 after an escape")
    }

    /// The parser and `JSONDecoder` agree on what is JSON, quirks included.
    @Test func agreesWithJSONDecoder() throws {
        let inputs = [
            "[1,]", "{\"a\":1 , }", "[[1,],]", "{\"a\":1,\"a\":2}", "\u{FEFF}{}", "{\"\":1}", "0.1e1", "1e-400", "5e-324",
            "[1,]]", "[,]", "\"\\u0000\"", "\"\u{7F}\"", "{\"a\":{\"b\":[1,2.5,\"x\",null,true]}}", "-9223372036854775809",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"search\",\"arguments\":{\"query\":\"a \\\"b\\\"\"}}}",
        ]
        for input in inputs {
            let data = Data(input.utf8)
            let expected = try? JSONDecoder().decode(JSONValue.self, from: data)
            #expect((try? JSONParser.parse(data)) == expected, "\(input)")
        }
    }

    @Test func invalidLineIsAParseError() {
        for line in ["{\"jsonrpc\":\"2.0\",", "[1 2]", "\"\\ud800\""] {
            guard case .invalid(nil, let e) = IncomingMessage.parse(Data(line.utf8)) else {
                Issue.record("\(line) is not a parse error")
                continue
            }
            #expect(e.code == .parseError)
            #expect(e.message == "Parse error: the line is not valid JSON (UTF-8, one message per line)")
        }
    }
}

@Suite struct JSONConvertibleTests {
    func coded(_ value: some Encodable) throws -> JSONValue { try JSONParser.parse(JSONCoding.encoder.encode(value)) }

    @Test func buildsWhatTheCodersGive() throws {
        let hit = SearchResult(
            id: "a/SKILL.md#x~example-1", kind: .example, title: "T \"q\"", skill: "a", breadcrumb: ["A", "B"],
            snippet: "**x** y", score: 12.345, source: SourceSpan(path: "a/SKILL.md", line: 3, endLine: 9))
        #expect(hit.json == (try coded(hit)))
        var whole = hit
        whole.score = 7
        #expect(whole.json == (try coded(whole)))
        var copied = hit
        copied.alsoAt = [
            OtherLocation(
                id: "a~2/SKILL.md#x", skill: "a~2", source: SourceSpan(path: "b/SKILL.md", line: 3, endLine: 9),
                absolutePath: "/r/b/SKILL.md")
        ]
        #expect(copied.json == (try coded(copied)))
        copied.plugin = PluginSummary(name: "kit", version: "1.0")
        #expect(copied.json == (try coded(copied)))
        copied.plugin = PluginSummary(name: "kit", version: nil)
        #expect(copied.json == (try coded(copied)))
        let response = CallToolRequest.Response(content: [TextContent("hi")], structuredContent: ["hits": [hit.json]], isError: true)
        #expect(response.json == (try coded(response)))
        let bare = CallToolRequest.Response(content: [], structuredContent: nil, isError: nil)
        #expect(bare.json == (try coded(bare)))
    }

    @Test func numbers() {
        #expect(JSONValue.number(3) == .int(3))
        #expect(JSONValue.number(-0.5) == .double(-0.5))
        #expect(JSONValue.number(1e20) == .double(1e20))
    }
}

@Suite struct JSONReadableTests {
    @Test func callToolReadsWhatTheDecoderReads() throws {
        for params: JSONValue in [
            ["name": "search", "arguments": ["query": "x", "limit": 2]], ["name": "get"], ["name": "get", "arguments": .null],
            ["name": "a", "_meta": ["k": 1]],
        ] {
            #expect(CallToolRequest(json: params) == (try params.decode(as: CallToolRequest.self)))
        }
        for params: JSONValue in [[:], ["name": 1], ["name": "a", "arguments": [1]], "x"] {
            #expect(CallToolRequest(json: params) == nil)
        }
    }
}
