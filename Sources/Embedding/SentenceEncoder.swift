import Foundation

/// A sentence encoder (all-MiniLM-L6-v2): text in, a unit vector out, whose dot product with
/// another measures how close their meanings are.
///
/// The model file is memory-mapped, so opening one costs little and several processes share its
/// pages. Every method may be called from several threads at once: each call runs OpenBLAS on one
/// thread in memory of its own, so callers parallelise by embedding batches concurrently.
public final class SentenceEncoder: Sendable {
    /// The model file name made by scripts/setup, e.g. "all-MiniLM-L6-v2.skm".
    public static let fileName = "all-MiniLM-L6-v2.skm"

    /// Sequences are packed into batches of about this many tokens: enough rows for the matrix
    /// products to run near the kernel's peak, few enough for the scratch matrices to stay in cache.
    static let batchTokens = 512

    private let encoder: BertEncoder
    private let tokenizer: WordPieceTokenizer
    private let name: String

    /// Memory-maps and validates the model file.
    /// - Throws: `EmbeddingError` when the file is missing, truncated, of another format or version,
    ///   or cannot be read; its message says to run scripts/setup.
    public init(contentsOf url: URL) throws {
        let model = try ModelFile(path: url.path)
        encoder = BertEncoder(model: model)
        tokenizer = WordPieceTokenizer(vocabulary: model.vocabulary)
        name = model.modelName
    }

    /// The length of every vector (384).
    public var dimension: Int { encoder.configuration.hidden }

    /// The model's name ("all-MiniLM-L6-v2").
    public var modelName: String { name }

    /// The OpenBLAS kernel in use on this CPU (for example "SkylakeX", AVX-512), for benchmarks and diagnostics.
    public static var blasKernel: String { BLAS.kernel }

    /// L2-normalised sentence vectors (mean pooling over the tokens), one per text, in order.
    ///
    /// Each text is cut to `maxTokens` tokens including [CLS] and [SEP] (at most the model's 512
    /// positions), as the reference tokenizer truncates. Safe to call from several threads at once.
    /// - Complexity: linear in the number of tokens for the dense layers, quadratic in each text's
    ///   length for attention.
    public func embed(_ texts: [String], maxTokens: Int) -> [[Float]] {
        let limit = clamped(maxTokens)
        let sequences = texts.map { tokenizer.tokenIDs($0, maxTokens: limit) }
        guard !sequences.isEmpty else { return [] }
        let longest = sequences.map(\.count).max() ?? 2
        let total = sequences.reduce(0) { $0 + $1.count }
        // A query's few tokens get scratch for those alone, not for a whole batch.
        let scratch = BertEncoder.Scratch(
            tokens: max(min(Self.batchTokens, total), longest), sequence: longest, configuration: encoder.configuration)
        var vectors: [[Float]] = []
        vectors.reserveCapacity(sequences.count)
        var batch: [[Int32]] = []
        var tokens = 0
        for ids in sequences {
            if tokens + ids.count > scratch.capacity {
                vectors += encoder.encode(batch, scratch: scratch)
                batch.removeAll(keepingCapacity: true)
                tokens = 0
            }
            batch.append(ids)
            tokens += ids.count
        }
        vectors += encoder.encode(batch, scratch: scratch)
        return vectors
    }

    /// The token ids exactly as the reference tokenizer gives them, with [CLS] ... [SEP], at most
    /// `maxTokens` of them (at least 2, at most the model's 512 positions).
    public func tokenIDs(_ text: String, maxTokens: Int) -> [Int32] {
        tokenizer.tokenIDs(text, maxTokens: clamped(maxTokens))
    }

    private func clamped(_ maxTokens: Int) -> Int {
        min(max(maxTokens, 2), encoder.configuration.maxPositions)
    }
}
