import Foundation
import Testing

@testable import SkillServer

/// The server's JSON parser against Foundation's `JSONDecoder`, on random and mutated lines: the
/// same verdict (valid or not) and the same value for every line, and never a crash. A fixed
/// seed keeps every run the same; `SKILL_FUZZ_ROUNDS` raises the count. The timings docs/server.md
/// quotes are a benchmark's: `swift run -c release json-parse-throughput`.
@Suite struct JSONParserFuzzTests {
    /// A small deterministic generator (SplitMix64).
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let seeds: [String] = [
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"swiftui state","limit":5}}}"#,
        #"{"jsonrpc":"2.0","id":"a-1","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}"#,
        #"[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]"#,
        #"{"a":[1,-2.5e10,0.1,1E400,-0,12345678901234567890,null,true,false],"b":"\u00e9\ud83d\ude00\n\t\"\\"}"#,
        #"{"k":"\ud800","l":"\udc00x","m":"\u0000"}"#,
    ]

    static let pieces: [[UInt8]] =
        [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800", "\\udc00", "1e999", "-", "0", ".5", "e", "null", "tru", " ", "\n",
            "\r",
        ]
        .map { Array($0.utf8) } + [[0x00], [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xEF, 0xBB, 0xBF], [0xF4, 0x90, 0x80, 0x80]]

    static func mutate(_ line: [UInt8], _ random: inout Random) -> [UInt8] {
        var bytes = line
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where !bytes.isEmpty: bytes[at] = UInt8.random(in: 0...255, using: &random)
            case 1 where !bytes.isEmpty: bytes.remove(at: at)
            case 2: bytes.insert(contentsOf: pieces.randomElement(using: &random)!, at: at)
            case 3: bytes = Array(bytes.prefix(at))
            default: bytes.insert(contentsOf: bytes[at...].prefix(8), at: at)
            }
        }
        return bytes
    }

    static func nested(_ depth: Int, open: String, close: String) -> [UInt8] {
        Array((String(repeating: open, count: depth) + String(repeating: close, count: depth)).utf8)
    }

    /// Foundation's verdict and value for `bytes`.
    static func foundation(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    @Test func sameVerdictAndValueAsFoundation() {
        let rounds = Int(ProcessInfo.processInfo.environment["SKILL_FUZZ_ROUNDS"] ?? "") ?? 3_000
        var random = Random(state: 11)
        var cases: [[UInt8]] = []
        for depth in [1, 100, 511, 512, 513, 10_000] {
            cases.append(Self.nested(depth, open: "[", close: "]"))
            cases.append(Self.nested(depth, open: "{\"a\":", close: "}"))
        }
        cases += [
            "1" + String(repeating: "0", count: 400), "-" + String(repeating: "9", count: 30), "1e308", "1e309", "4.9e-325",
            "\"\\uD834\\uDD1E\"", "\"\\uDD1E\"",
        ].map { Array($0.utf8) }
        for _ in 0..<rounds {
            let seed = Array(Self.seeds.randomElement(using: &random)!.utf8)
            cases.append(Self.mutate(seed, &random))
        }
        var disagreements: [String] = []
        for bytes in cases {
            let ours = try? JSONParser.parse(Data(bytes))
            let theirs = Self.foundation(bytes)
            // JSONDecoder does not check the value of a duplicated key it drops (a lone
            // surrogate there passes); JSONSerialization does, as this parser does.
            let strict = (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) == nil
            if ours != theirs, !(ours == nil && strict), disagreements.count < 5 {
                disagreements.append(
                    "\(String(decoding: bytes.prefix(120), as: UTF8.self)): ours \(ours.map { "\($0)" } ?? "invalid"), Foundation \(theirs.map { "\($0)" } ?? "invalid")"
                )
            }
        }
        #expect(disagreements == [])
    }
}
