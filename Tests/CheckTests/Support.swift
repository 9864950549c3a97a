import Foundation
import SkillCheck
import SkillIndex
import SkillParser
import TestSupport

let bundledSkills = packageRoot.appendingPathComponent("skills")
let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures", isDirectory: true)

/// Checkers built once per test run (building the corpus's index takes seconds).
enum Checkers {
    private static let folder = try! TemporaryFolder()

    static let bundled: Checker = try! SkillIndex(roots: [bundledSkills], indexURL: folder.url.appendingPathComponent("bundled.sqlite"))
        .checker()

    /// The bundled skills and the corpus, or `nil` when ../shared/corpus is absent.
    static let withCorpus: Checker? =
        FileManager.default.fileExists(atPath: corpus.path)
        ? try! SkillIndex(roots: [bundledSkills, corpus], indexURL: folder.url.appendingPathComponent("corpus.sqlite")).checker()
        : nil
}

/// The labelled set: files and, for those with a mistake, its lines and the anti-pattern it is modelled on.
struct Labelled: Decodable {
    struct File: Decodable {
        struct Mistake: Decodable {
            var line: Int
            var endLine: Int
            var modelledOn: String
        }
        var path: String
        var mistake: Mistake?
    }
    var files: [File]

    static let folder = fixtures.appendingPathComponent("labelled")
    static let set = try! JSONDecoder().decode(Labelled.self, from: Data(contentsOf: folder.appendingPathComponent("labels.json")))
}

/// Precision and recall of `checker` on the labelled files (see Benchmarks/check_labelled.py).
func score(_ checker: Checker, files: [Labelled.File], minScore: Double = SignatureSet.defaultMinScore) throws -> (
    precision: Double, recall: Double, falsePositives: [String]
) {
    var correct = 0
    var all = 0
    var found = 0
    var falsePositives: [String] = []
    for file in files {
        let path = Labelled.folder.appendingPathComponent(file.path).path
        let findings = try checker.check(paths: [path], minScore: minScore).findings
        all += findings.count
        let right = findings.filter { finding in
            guard let mistake = file.mistake else { return false }
            return finding.line <= mistake.endLine && mistake.line <= finding.endLine
        }
        correct += right.count
        if !right.isEmpty { found += 1 }
        falsePositives += findings.filter { !right.contains($0) }.map { "\(file.path):\($0.line) \($0.id)" }
    }
    let mistakes = files.filter { $0.mistake != nil }.count
    return (all == 0 ? 1 : Double(correct) / Double(all), mistakes == 0 ? 1 : Double(found) / Double(mistakes), falsePositives)
}
