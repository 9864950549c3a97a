// Sentence encoder throughput: entries embedded per second and CPU seconds per 1,000 entries, at
// several token limits, on one thread and on several at once (docs/embedding.md).
//
//   swift run -c release embedding-throughput [ENTRIES] [THREADS]
//
// The entries are the paragraphs of the bundled skills (skills/**/*.md), cycled to ENTRIES
// (default 1,000), each cut to the limit as `skill` would cut them. The model file is SKILL_MODEL
// or model/all-MiniLM-L6-v2.skm.
import Foundation
import SkillEmbedding
import Synchronization

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let entryCount = arguments.first ?? 1000
let threadCount = arguments.dropFirst().first ?? 2
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let modelPath = ProcessInfo.processInfo.environment["SKILL_MODEL"] ?? root.appendingPathComponent("model/\(SentenceEncoder.fileName)").path

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func paragraphs() -> [String] {
    var result: [String] = []
    let walker = FileManager.default.enumerator(at: root.appendingPathComponent("skills"), includingPropertiesForKeys: nil)
    while let url = walker?.nextObject() as? URL {
        guard url.pathExtension == "md", let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
        result += text.components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { $0.count > 40 }
    }
    return result.sorted()
}

let opened = (wall: Date(), cpu: cpuSeconds())
for _ in 0..<20 { _ = try SentenceEncoder(contentsOf: URL(fileURLWithPath: modelPath)) }
print(
    String(
        format: "model opened in %.1f ms, %.1f ms of CPU (mean of 20); OpenBLAS kernel %@",
        Date().timeIntervalSince(opened.wall) * 1000 / 20,
        (cpuSeconds() - opened.cpu) * 1000 / 20, SentenceEncoder.blasKernel))
let encoder = try SentenceEncoder(contentsOf: URL(fileURLWithPath: modelPath))
let source = paragraphs()
let entries = (0..<entryCount).map { source[$0 % source.count] }
_ = encoder.embed(Array(entries.prefix(20)), maxTokens: 128)  // warm the pages of the mapping

let query = "my SwiftUI view keeps resetting its state when the parent redraws"
let queryStart = (wall: Date(), cpu: cpuSeconds())
for _ in 0..<50 { _ = encoder.embed([query], maxTokens: 64) }
print(
    String(
        format: "one query (%d tokens): %.2f ms, %.2f ms of CPU", encoder.tokenIDs(query, maxTokens: 64).count,
        Date().timeIntervalSince(queryStart.wall) * 1000 / 50, (cpuSeconds() - queryStart.cpu) * 1000 / 50))

for limit in [64, 128, 256] {
    let tokens = entries.reduce(0) { $0 + encoder.tokenIDs($1, maxTokens: limit).count }
    let cpu0 = cpuSeconds()
    let wall0 = Date()
    _ = encoder.embed(entries, maxTokens: limit)
    let wall = Date().timeIntervalSince(wall0)
    let cpu = cpuSeconds() - cpu0
    print(
        String(
            format: "maxTokens %3d, 1 thread:  %6.1f entries/s, %5.1f CPU s per 1,000 entries (%.1f tokens/entry, %.0f tokens/s)",
            limit, Double(entryCount) / wall, cpu / Double(entryCount) * 1000, Double(tokens) / Double(entryCount), Double(tokens) / wall))

    let chunks = stride(from: 0, to: entries.count, by: 64).map { Array(entries[$0..<min($0 + 64, entries.count)]) }
    let next = Mutex(0)
    let cpu1 = cpuSeconds()
    let wall1 = Date()
    DispatchQueue.concurrentPerform(iterations: threadCount) { _ in
        while true {
            let index = next.withLock { value -> Int in
                defer { value += 1 }
                return value
            }
            guard index < chunks.count else { return }
            _ = encoder.embed(chunks[index], maxTokens: limit)
        }
    }
    let wallParallel = Date().timeIntervalSince(wall1)
    print(
        String(
            format: "maxTokens %3d, %d threads: %6.1f entries/s, %5.1f CPU s per 1,000 entries",
            limit, threadCount, Double(entryCount) / wallParallel, (cpuSeconds() - cpu1) / Double(entryCount) * 1000))
}
