// The server's JSON parser against Foundation's, on request lines: µs per line for each way of
// reading one (docs/server.md). A benchmark, not a test: figures, no assertion.
//
//   swift run -c release json-parse-throughput [LINES]
//
// The lines are three typical requests in turn, the first one's `"id":1` renumbered per line
// (default 20,000 lines), as the suite's timing test read them before it moved here.
import Foundation
import SkillServer

let lineCount = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 20_000
let seeds = [
    #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"swiftui state","limit":5}}}"#,
    #"{"jsonrpc":"2.0","id":"a-1","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}"#,
]
let lines = (0..<lineCount).map { n in Data(seeds[n % 3].replacingOccurrences(of: "\"id\":1", with: "\"id\":\(n)").utf8) }

/// What the server would need on top of `JSONSerialization`: its `Any` as a ``JSONValue``.
func value(_ any: Any) -> JSONValue {
    switch any {
    case let b as Bool where String(cString: (any as! NSNumber).objCType) == "c": return .bool(b)
    case let n as NSNumber: return Double(n.int64Value) == n.doubleValue ? .int(n.intValue) : .double(n.doubleValue)
    case let s as String: return .string(s)
    case let a as [Any]: return .array(a.map(value))
    case let o as [String: Any]: return .object(o.mapValues(value))
    default: return .null
    }
}

func time(_ name: String, _ body: (Data) throws -> Void) rethrows {
    let start = DispatchTime.now().uptimeNanoseconds
    for line in lines { try body(line) }
    let micros = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000 / Double(lines.count)
    print("json-bench \(name): \(String(format: "%.2f", micros)) µs per request line")
}

try time("JSONParser") { _ = try JSONParser.parse($0) }
try time("JSONDecoder(JSONValue)") { _ = try JSONDecoder().decode(JSONValue.self, from: $0) }
try time("JSONSerialization") { _ = try JSONSerialization.jsonObject(with: $0) }
try time("JSONSerialization + JSONValue") { _ = value(try JSONSerialization.jsonObject(with: $0)) }
time("IncomingMessage.parse") { _ = IncomingMessage.parse($0) }
