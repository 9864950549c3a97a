/// Nearest ids for an id nobody indexed, within a fixed budget: an unknown id of any length
/// costs at most ``maxCandidates`` comparisons of at most ``maxLength`` characters each, with
/// the edit distance stopping at ``maxDistance``. See docs/reliability.md.
public enum IDSuggestions {
    /// The most characters of an id compared (ids are far shorter; a longer one is cut).
    public static let maxLength = 120
    /// The edit distance beyond which candidates are not told apart.
    public static let maxDistance = 24
    /// The most candidate ids read for each prefix tried.
    public static let maxCandidates = 2_000

    /// The characters of `id` that are compared: lower-cased, at most ``maxLength``.
    static func key(_ id: String) -> [Character] {
        Array(id.lowercased().prefix(maxLength))
    }

    /// Up to `limit` of `candidates` nearest to `id`, nearest first, ties by id; at most
    /// ``maxCandidates`` of them are compared.
    public static func rank(_ id: String, candidates: [String], limit: Int) -> [String] {
        let target = key(id)
        return candidates.prefix(maxCandidates)
            .map { ($0, EditDistance.between(target, key($0), limit: maxDistance)) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            .prefix(max(0, limit))
            .map(\.0)
    }
}
