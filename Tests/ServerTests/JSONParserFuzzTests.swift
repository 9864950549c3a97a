import Foundation
import Testing

@testable import SkillServer

/// The server's JSON parser against Foundation's `JSONDecoder`, on random and mutated lines: the
/// same verdict (valid or not) and the same value for every line, and never a crash. A fixed
/// seed keeps every run the same; `SKILL_FUZZ_ROUNDS` raises the count and `SKILL_BENCH=1`
/// prints the timings docs/server.md quotes (release build).
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

    /// What the server would need on top of `JSONSerialization`: its `Any` as a ``JSONValue``.
    static func value(_ any: Any) -> JSONValue {
        switch any {
        case let b as Bool where String(cString: (any as! NSNumber).objCType) == "c": return .bool(b)
        case let n as NSNumber: return Double(n.int64Value) == n.doubleValue ? .int(n.intValue) : .double(n.doubleValue)
        case let s as String: return .string(s)
        case let a as [Any]: return .array(a.map(value))
        case let o as [String: Any]: return .object(o.mapValues(value))
        default: return .null
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["SKILL_BENCH"] == "1"))
    func timings() throws {
        let lines = (0..<20_000).map { n in Data(Self.seeds[n % 3].replacingOccurrences(of: "\"id\":1", with: "\"id\":\(n)").utf8) }
        func time(_ name: String, _ body: (Data) throws -> Void) rethrows {
            let start = DispatchTime.now().uptimeNanoseconds
            for line in lines { try body(line) }
            let micros = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000 / Double(lines.count)
            print("json-bench \(name): \(String(format: "%.2f", micros)) µs per request line")
        }
        try time("JSONParser") { _ = try JSONParser.parse($0) }
        try time("JSONDecoder(JSONValue)") { _ = try JSONDecoder().decode(JSONValue.self, from: $0) }
        try time("JSONSerialization") { _ = try JSONSerialization.jsonObject(with: $0) }
        try time("JSONSerialization + JSONValue") { _ = Self.value(try JSONSerialization.jsonObject(with: $0)) }
        time("IncomingMessage.parse") { _ = IncomingMessage.parse($0) }
    }
}
