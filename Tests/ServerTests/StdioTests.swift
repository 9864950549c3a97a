import Foundation
import Testing

@testable import SkillServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct StdioTests {
    /// Runs the stdio loop over real pipes: input written then closed, output read to the end.
    func serve(_ input: String) -> (status: Int32, output: String) {
        var inPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        #expect(pipe(&inPipe) == 0)
        #expect(pipe(&outPipe) == 0)
        let bytes = Array(input.utf8)
        _ = bytes.withUnsafeBytes { write(inPipe[1], $0.baseAddress, $0.count) }
        close(inPipe[1])
        let server = MCPServer(knowledge: indexedKnowledge())
        let status = StdioServer.run(server: server, input: inPipe[0], output: outPipe[1], protectStdout: false, freshnessInterval: nil)
        close(outPipe[1])
        close(inPipe[0])
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(outPipe[0], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        close(outPipe[0])
        return (status, String(decoding: out, as: UTF8.self))
    }

    @Test func answersEverythingOwedThenReturnsZero() {
        let (status, output) = serve(
            """
            {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_skill","arguments":{"name":"state-basics"}}}
            garbage
            {"jsonrpc":"2.0","id":2,"method":"ping"}
            """)
        #expect(status == 0)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(lines.last == "")
        #expect(lines[0].hasPrefix(##"{"id":1,"jsonrpc":"2.0","result":{"content":[{"text":"# state-basics"##))
        #expect(
            lines[1]
                == #"{"error":{"code":-32700,"message":"Parse error: the line is not valid JSON (UTF-8, one message per line)"},"id":null,"jsonrpc":"2.0"}"#
        )
        #expect(lines[2] == #"{"id":2,"jsonrpc":"2.0","result":{}}"#)
    }

    @Test func emptyInputExitsCleanly() {
        let (status, output) = serve("")
        #expect(status == 0)
        #expect(output == "")
    }
}
