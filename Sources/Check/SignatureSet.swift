import Foundation
import SkillParser

/// The anti-patterns of an index turned into matchable signatures, and the matcher itself.
///
/// A signature is the anti-pattern's ❌ code as token trigrams, less the trigrams its ✅ fix
/// shares (what the fix keeps is not the mistake), weighted by rarity across every code example
/// of the index (an IDF: `struct X: View {` is everywhere, `= NumberFormatter (` is not), and
/// cut to its most distinctive ``gramsPerSignature``. A finding is a window of the user's code
/// that covers at least a ``minimumScore`` share of that weight. The ✅ trigrams form a
/// counter-signature: a window whose surroundings match the fix at least as well is not reported.
///
/// Names the code declares are `§I` in both the skill's code and the user's (see ``CodeSketch``);
/// a name used without being declared stays literal only when code of at least two skills uses
/// it (framework vocabulary such as `NavigationStack` or `onAppear`), else it is `§I` too.
public struct SignatureSet: Sendable {
    /// Tokens per gram.
    public static let gramLength = 3
    /// The most distinctive grams a signature keeps.
    public static let gramsPerSignature = 12
    /// A signature needs at least this many distinctive grams, and a finding must cover as many.
    public static let minimumGrams = 3
    /// The default threshold, chosen on the labelled set (docs/check.md).
    public static let defaultMinScore = 0.5
    /// How much of a signature's score on ordinary code is taken as its floor (chosen on the labelled set).
    static let backgroundShare = 0.7

    struct Signature: Sendable {
        var code: IndexedCode
        var language: SourceLanguage
        var grams: [UInt64]
        var weights: [Double]
        var total: Double
        var counterGrams: [UInt64]
        var counterWeights: [Double]
        var counterTotal: Double
        /// The widest window, in tokens, a finding may span.
        var span: Int
        /// Its second best raw score on the skills' ordinary code (examples outside any
        /// anti-pattern's section): findings are scored above this level.
        var background = 0.0
    }

    private struct Vocabulary: Sendable {
        var ids: [String: UInt64] = [:]
        /// Used names that are framework vocabulary (see the type's summary).
        var names: Set<String> = []
    }

    private var vocabularies: [SourceLanguage: Vocabulary] = [:]
    private(set) var signatures: [Signature] = []
    /// Gram → (signature, slot) for every signature gram: a file's grams find their signatures.
    private var postings: [UInt64: [(signature: Int32, slot: Int8)]] = [:]
    private var counterPostings: [UInt64: [(signature: Int32, slot: Int8)]] = [:]
    /// The last word id given (ids are unique across languages: one posting table serves all).
    private var nextID: UInt64 = 0
    /// While building: the interned words of the ordinary examples, for calibration.
    private var background: [[UInt64]] = []

    /// The number of signatures (anti-pattern code blocks with enough distinctive grams).
    public var count: Int { signatures.count }

    /// The entry ids that have a signature.
    public var ids: Set<String> { Set(signatures.map(\.code.id)) }

    /// Signatures for every mistake among `codes`, weighted against all of them.
    public init(_ codes: [IndexedCode]) {
        for language in SourceLanguage.allCases {
            let mine = codes.filter { $0.record.sketch.language == language }
            guard !mine.isEmpty else { continue }
            build(language, mine)
        }
        for (index, signature) in signatures.enumerated() {
            for (slot, gram) in signature.grams.enumerated() {
                postings[gram, default: []].append((Int32(index), Int8(slot)))
            }
            for (slot, gram) in signature.counterGrams.enumerated() {
                counterPostings[gram, default: []].append((Int32(index), Int8(slot)))
            }
        }
        // The second best score: one ordinary block that holds the mistake (an unmarked
        // "before" example, a copy of the skill) does not silence a signature; two do.
        var best = [Double](repeating: 0, count: signatures.count)
        for ids in background {
            for match in matches(ids) {
                let i = match.signature
                if match.score > best[i] {
                    signatures[i].background = best[i]
                    best[i] = match.score
                } else if match.score > signatures[i].background {
                    signatures[i].background = match.score
                }
            }
        }
        background = []
    }

    private mutating func build(_ language: SourceLanguage, _ codes: [IndexedCode]) {
        let syntax = language.syntax
        var vocabulary = Vocabulary()
        // Each used name's first skill, or -1 once a second skill uses it; each word is
        // classified once, the first time it is seen.
        var skillsOfName: [String: Int] = [:]
        var seen = Set<String>()
        var declared = Set<String>()
        var skillNumbers: [String: Int] = [:]
        for code in codes {
            let skill = skillNumbers[code.skill] ?? skillNumbers.count
            skillNumbers[code.skill] = skill
            for word in code.record.sketch.words {
                if let first = skillsOfName[word] {
                    if first != skill, first != -1 { skillsOfName[word] = -1 }
                } else if seen.insert(word).inserted {
                    if CodeSketch.isUsedName(word, syntax) {
                        skillsOfName[word] = skill
                    } else if word.hasPrefix(CodeSketch.name), word.count > 2 {
                        declared.insert(String(word.dropFirst(2)))
                    }
                }
            }
        }
        vocabulary.names = Set(skillsOfName.filter { $0.value == -1 && !declared.contains($0.key) }.keys)
        // Raw word → id: `normal` runs once per distinct word.
        var idOfWord: [String: UInt64] = [:]
        func intern(_ sketch: CodeSketch) -> [UInt64] {
            sketch.words.map { word in
                if let id = idOfWord[word] { return id }
                let normal = Self.normal(word, syntax, vocabulary.names)
                let id: UInt64
                if let known = vocabulary.ids[normal] {
                    id = known
                } else {
                    nextID += 1
                    id = nextID
                    vocabulary.ids[normal] = id
                }
                idOfWord[word] = id
                return id
            }
        }
        // Which ids may anchor a gram: vocabulary, attributes, macros, keywords; not §I, §S, §N or punctuation.
        var examples: [Set<UInt64>] = []
        var exampleIDs: [[UInt64]] = []
        var mistakes: [(IndexedCode, [UInt64], [UInt64])] = []
        let mistakeSections = Set(codes.filter { $0.record.role == .mistake }.map { Self.section($0.id) })
        let mistakeWords = Set(codes.filter { $0.record.role == .mistake }.map(\.record.sketch.words))
        for code in codes {
            let ids = intern(code.record.sketch)
            if code.record.role == .code {
                examples.append(Set(grams(ids)))
                exampleIDs.append(ids)
                if !mistakeSections.contains(Self.section(code.id)), !mistakeWords.contains(code.record.sketch.words) {
                    background.append(ids)
                }
            } else {
                mistakes.append((code, ids, code.record.fixSketch.map(intern) ?? []))
            }
        }
        var anchors = Set<UInt64>()
        for (word, id) in vocabulary.ids where Self.isAnchor(word, syntax) { anchors.insert(id) }
        // Rarity of each gram and of each word across the examples: a gram weighs the geometric
        // mean of its own rarity and its rarest word's, so `{ func §I` (rare as a gram among
        // short snippets, made of common words) weighs less than `= NumberFormatter (`.
        var frequency: [UInt64: Int] = [:]
        var wordFrequency: [UInt64: Int] = [:]
        for (set, ids) in zip(examples, exampleIDs) {
            for gram in set { frequency[gram, default: 0] += 1 }
            for word in Set(ids) { wordFrequency[word, default: 0] += 1 }
        }
        let total = Double(examples.count + 1)
        func rarity(_ count: Int?) -> Double { log(total / Double((count ?? 0) + 1)) + 0.1 }
        func weight(_ gram: UInt64) -> Double {
            let word = [gram >> 42, (gram >> 21) & 0x1F_FFFF, gram & 0x1F_FFFF].map { rarity(wordFrequency[$0]) }.max() ?? 0
            return (rarity(frequency[gram]) * word).squareRoot()
        }
        func distinctive(_ ids: [UInt64], minus other: Set<UInt64>) -> [(UInt64, Double)] {
            var seen = Set<UInt64>()
            var out: [(UInt64, Double)] = []
            for gram in grams(ids) where !other.contains(gram) && seen.insert(gram).inserted {
                let parts = [gram >> 42, (gram >> 21) & 0x1F_FFFF, gram & 0x1F_FFFF]
                guard parts.contains(where: anchors.contains) else { continue }
                out.append((gram, weight(gram)))
            }
            // Stable: the rarest first, then in code order.
            return Array(
                out.enumerated().sorted { ($0.element.1, -$0.offset) > ($1.element.1, -$1.offset) }
                    .prefix(Self.gramsPerSignature).map(\.element))
        }
        for (code, ids, fixIDs) in mistakes {
            let own = distinctive(ids, minus: Set(grams(fixIDs)))
            guard own.count >= Self.minimumGrams else { continue }
            let counter = distinctive(fixIDs, minus: Set(grams(ids)))
            signatures.append(
                Signature(
                    code: code, language: language, grams: own.map(\.0), weights: own.map(\.1), total: own.map(\.1).reduce(0, +),
                    counterGrams: counter.map(\.0), counterWeights: counter.map(\.1), counterTotal: counter.map(\.1).reduce(0, +),
                    span: ids.count * 3 / 2 + 20))
        }
        vocabularies[language] = vocabulary
    }

    /// An entry's heading section: its id without a `~kind-n` suffix.
    private static func section(_ id: String) -> Substring {
        id.split(separator: "~", maxSplits: 1).first ?? Substring(id)
    }

    /// A sketch word as matched: used names outside the vocabulary become `§I`.
    private static func normal(_ word: String, _ syntax: LexicalSyntax, _ names: Set<String>) -> String {
        if word.hasPrefix(CodeSketch.name) { return CodeSketch.name }
        return CodeSketch.isUsedName(word, syntax) && !names.contains(word) ? CodeSketch.name : word
    }

    private static func isAnchor(_ word: String, _ syntax: LexicalSyntax) -> Bool {
        guard let first = word.utf8.first, word != CodeSketch.name, word != CodeSketch.string, word != CodeSketch.number else {
            return false
        }
        return first == UInt8(ascii: "@") || first == UInt8(ascii: "#") || syntax.keywords.contains(word)
            || CodeSketch.isUsedName(word, syntax)
    }

    private static func gram(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> UInt64 {
        (min(a, 0x1F_FFFF) << 42) | (min(b, 0x1F_FFFF) << 21) | min(c, 0x1F_FFFF)
    }

    /// The grams of interned words, skipping any with an unknown word (id 0).
    private func grams(_ ids: [UInt64]) -> [UInt64] {
        guard ids.count >= Self.gramLength else { return [] }
        return (0...(ids.count - Self.gramLength)).compactMap { k in
            ids[k] == 0 || ids[k + 1] == 0 || ids[k + 2] == 0 ? nil : Self.gram(ids[k], ids[k + 1], ids[k + 2])
        }
    }

    // MARK: Matching

    /// A signature's best window in some code.
    private struct Match {
        var signature: Int
        var score: Double
        var start: Int
        var end: Int
    }

    /// The findings in `source`, sorted by line; one per anti-pattern and place.
    /// - Parameters:
    ///   - path: the file's name, copied into each finding.
    ///   - minScore: report windows covering at least this share of a signature's weight.
    public func check(_ source: String, language: SourceLanguage, path: String, minScore: Double = defaultMinScore) -> [Finding] {
        guard let vocabulary = vocabularies[language] else { return [] }
        let sketch = CodeSketch(source, language: language)
        let ids = sketch.words.map { vocabulary.ids[Self.normal($0, language.syntax, vocabulary.names)] ?? 0 }
        var findings: [Finding] = []
        for match in matches(ids) {
            let signature = signatures[match.signature]
            // Two decimals, rounded down, so that the score shown is the one compared.
            let score = (Self.calibrated(match.score, signature.background) * 100 + 1e-9).rounded(.down) / 100
            guard score >= minScore else { continue }
            let code = signature.code
            findings.append(
                Finding(
                    path: path, line: sketch.lines[match.start],
                    endLine: sketch.lines[min(match.end + Self.gramLength - 1, sketch.lines.count - 1)],
                    score: score, id: code.id, title: code.title, skill: code.skill,
                    why: code.record.why, fix: code.record.fix, fixCode: code.record.fixCode, source: code.source))
        }
        findings.sort { ($0.score, $1.line, $1.id) > ($1.score, $0.line, $0.id) }
        var kept: [Finding] = []
        for finding in findings
        where !kept.contains(where: { $0.id == finding.id && $0.line <= finding.endLine && finding.line <= $0.endLine }) {
            kept.append(finding)
        }
        return kept.sorted { ($0.line, -$0.score, $0.id) < ($1.line, -$1.score, $1.id) }
    }

    /// A raw score measured against what the signature scores on the skills' ordinary code:
    /// 0 at (a share of) that level, 1 for a full match; always 0 for a signature that ordinary
    /// code already contains whole (it cannot tell a mistake from good code).
    static func calibrated(_ score: Double, _ background: Double) -> Double {
        guard background < 0.95 else { return 0 }
        let floor = background * backgroundShare
        return max(0, (score - floor) / (1 - floor))
    }

    /// Every signature's best window in `ids` (a sketch's interned words), not suppressed by
    /// its counter-signature.
    private func matches(_ ids: [UInt64]) -> [Match] {
        var hits: [Int32: [(position: Int, slot: Int8)]] = [:]
        var counterHits: [Int32: [(position: Int, slot: Int8)]] = [:]
        if ids.count >= Self.gramLength {
            for k in 0...(ids.count - Self.gramLength) where ids[k] != 0 && ids[k + 1] != 0 && ids[k + 2] != 0 {
                let gram = Self.gram(ids[k], ids[k + 1], ids[k + 2])
                if let list = postings[gram] { for (signature, slot) in list { hits[signature, default: []].append((k, slot)) } }
                if let list = counterPostings[gram] {
                    for (signature, slot) in list { counterHits[signature, default: []].append((k, slot)) }
                }
            }
        }
        var found: [Match] = []
        for (index, list) in hits where list.count >= Self.minimumGrams {
            let signature = signatures[Int(index)]
            guard let best = Self.bestWindow(list, weights: signature.weights, span: signature.span),
                best.distinct >= Self.minimumGrams
            else { continue }
            let score = best.weight / signature.total
            if signature.counterTotal > 0, let counter = counterHits[index] {
                var slots = Set<Int8>()
                let weight =
                    counter
                    .filter {
                        $0.position >= best.start - signature.span && $0.position <= best.end + signature.span
                            && slots.insert($0.slot).inserted
                    }
                    .map { signature.counterWeights[Int($0.slot)] }.reduce(0, +)
                if weight / signature.counterTotal >= score { continue }
            }
            found.append(Match(signature: Int(index), score: score, start: best.start, end: best.end))
        }
        return found
    }

    /// The window of at most `span` tokens covering the most distinct signature weight.
    private static func bestWindow(_ hits: [(position: Int, slot: Int8)], weights: [Double], span: Int) -> (
        weight: Double, distinct: Int, start: Int, end: Int
    )? {
        let sorted = hits.sorted { $0.position < $1.position }
        var counts = [Int](repeating: 0, count: weights.count)
        var weight = 0.0
        var distinct = 0
        var best: (weight: Double, distinct: Int, start: Int, end: Int)?
        var left = 0
        for right in sorted.indices {
            let slot = Int(sorted[right].slot)
            if counts[slot] == 0 {
                weight += weights[slot]
                distinct += 1
            }
            counts[slot] += 1
            while sorted[right].position - sorted[left].position > span {
                let out = Int(sorted[left].slot)
                counts[out] -= 1
                if counts[out] == 0 {
                    weight -= weights[out]
                    distinct -= 1
                }
                left += 1
            }
            if best == nil || weight > best!.weight + 1e-9 {
                best = (weight, distinct, sorted[left].position, sorted[right].position)
            }
        }
        return best
    }
}
