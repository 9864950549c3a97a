import Foundation
import SkillParser

/// The ranking's knobs and their overrides for tuning.
extension Searcher {
    /// The knobs of the ranking, measured on ../shared/corpus/relevance.json (docs/search.md).
    struct Ranking: Sendable {
        /// The title's weight in a question (soft retrieval): 8 there cost questions 0.761 → 0.732.
        var title = 12.0
        /// The title's weight in a keyword query: its words are in the titles of many entries, and
        /// the text tells them apart (docs/search.md: relevance.json 0.853 at 12, 0.889 at 8).
        var keywordTitle = 8.0
        var breadcrumb = 3.0
        var keywords = 4.0
        var text = 1.0
        var code = 0.6
        /// Multiplies the score by `1 + titleCoverage * share of query words in the title`.
        var titleCoverage = 0.0
        /// Multiplies the score of an entry whose code uses a symbol of the query.
        var symbolBoost = 1.0
        /// Multiplies the score of an entry whose title has exactly the query's words.
        var exactTitle = 1.5
        /// How many BM25 candidates are re-ranked (100 and 200 measure the same; 60 loses).
        var candidates = 100
        /// The exponent of the coverage factor in soft retrieval.
        var coverage = 1.0
        /// Multiplies a soft candidate's score by `1 + pairs * share`, where `share` is the share of
        /// the query's adjacent word pairs it holds as phrases.
        var pairs = 2.0
        /// Queries of at most this many terms are keywords: every term must match (else any).
        /// Longer ones are questions in the asker's words, many of which no answer holds: they
        /// are retrieved softly (a minimum-should-match, as search engines do).
        var shortQuery = 4
        /// The rows an any-word query may score, as a share of the entries, within
        /// ``scoredRows`` (docs/search.md: Bounded work).
        var scoredShare = 0.1
        /// The bounds of the rows an any-word query may score.
        var scoredRows = 1_000...5_000
        /// Multiplies a soft candidate's score by `1 + skillMatch * share`, where `share` is the
        /// share of the query's weight (IDF) that its skill's name and description hold (1.5 won
        /// on the first held-out sets and lost on the later ones: docs/search.md).
        var skillMatch = 0.75
        /// Multiplies the score of a routing entry (``EntryRole/routing``; 0.3: chosen with the
        /// held-out questions).
        var routing = 0.3
        /// Multiplies the score of an entry written about the skill for its maintainers
        /// (``EntryRole/about``: its spec, evaluations, sources). Every judged set measures the
        /// same from 0.1 to 0.3 (docs/search.md); 0.3, as routing.
        var about = 0.3
        /// Whether a word also matches the other words of its ``Thesaurus`` group (1) or not (0).
        var thesaurus = 1.0
        /// The tokens of an entry's text (after its breadcrumb and title) and of a query that
        /// the sentence encoder reads (docs/search.md: The vector stage).
        var vectorTokens = 64
        /// The nearest entries by vector that take part in fusion.
        var vectorDepth = 50
        /// The least cosine similarity of a vector neighbour: a query whose words match nothing
        /// still finds no result rather than the nearest of unrelated entries.
        var similarityFloor = 0.3
        /// The lexical results that take part in fusion.
        var fusionDepth = 50
        /// The weight of a neighbour's similarity in fusion, beside the lexical score's share of
        /// the first result's (1 at most); 0 turns the vector stage off.
        var vectorWeight = 0.7
        /// Multipliers per kind (1 when absent).
        var kinds: [String: Double] = ["example": 0.6, "anti-pattern": 1.2, "decision-tree": 1.2, "table": 1.1]

        /// The ranking of this process, read once.
        static let current = fromEnvironment()

        /// The defaults, with overrides from `SKILL_RANKING` (`title=8,kind.example=0.5,…`): a
        /// tuning aid for Benchmarks/relevance.py, not a user setting.
        static func fromEnvironment() -> Ranking {
            var r = Ranking()
            guard let spec = ProcessInfo.processInfo.environment["SKILL_RANKING"] else { return r }
            for pair in spec.split(separator: ",") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard kv.count == 2, let v = Double(kv[1]) else { continue }
                switch kv[0] {
                case "title": r.title = v
                case "keywordTitle": r.keywordTitle = v
                case "breadcrumb": r.breadcrumb = v
                case "keywords": r.keywords = v
                case "text": r.text = v
                case "code": r.code = v
                case "titleCoverage": r.titleCoverage = v
                case "symbolBoost": r.symbolBoost = v
                case "exactTitle": r.exactTitle = v
                case "candidates": r.candidates = Int(v)
                case "coverage": r.coverage = v
                case "shortQuery": r.shortQuery = Int(v)
                case "pairs": r.pairs = v
                case "scoredShare": r.scoredShare = v
                case "routing": r.routing = v
                case "about": r.about = v
                case "thesaurus": r.thesaurus = v
                case "skillMatch": r.skillMatch = v
                case "vectorTokens": r.vectorTokens = Int(v)
                case "vectorDepth": r.vectorDepth = Int(v)
                case "similarityFloor": r.similarityFloor = v
                case "fusionDepth": r.fusionDepth = Int(v)
                case "vectorWeight": r.vectorWeight = v
                default: if kv[0].hasPrefix("kind.") { r.kinds[String(kv[0].dropFirst(5))] = v }
                }
            }
            return r
        }
    }
}
