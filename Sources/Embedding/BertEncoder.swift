/// The BERT forward pass of a sentence encoder over a mapped model file: embeddings, the
/// transformer layers, mean pooling and L2 normalisation.
///
/// The sequences of a batch are packed one after another into one matrix (no padding), so every
/// dense layer is one matrix product over all the batch's tokens; only attention runs per sequence
/// and head. `@unchecked Sendable`: the weight pointers point into the read-only mapping `model`
/// keeps alive, and each call works in scratch memory of its own.
struct BertEncoder: @unchecked Sendable {
    private struct Layer {
        var qkvWeight, qkvBias: UnsafePointer<Float>
        var attentionOutputWeight, attentionOutputBias: UnsafePointer<Float>
        var attentionNormWeight, attentionNormBias: UnsafePointer<Float>
        var intermediateWeight, intermediateBias: UnsafePointer<Float>
        var outputWeight, outputBias: UnsafePointer<Float>
        var outputNormWeight, outputNormBias: UnsafePointer<Float>
    }

    let configuration: ModelFile.Configuration
    private let model: ModelFile
    private let word, position, tokenType, normWeight, normBias: UnsafePointer<Float>
    private let layers: [Layer]

    init(model: ModelFile) {
        self.model = model
        configuration = model.configuration
        word = model.tensor("embeddings.word")
        position = model.tensor("embeddings.position")
        tokenType = model.tensor("embeddings.tokenType")
        normWeight = model.tensor("embeddings.norm.weight")
        normBias = model.tensor("embeddings.norm.bias")
        layers = (0..<model.configuration.layers).map { index in
            let p = "layer\(index)."
            return Layer(
                qkvWeight: model.tensor(p + "qkv.weight"), qkvBias: model.tensor(p + "qkv.bias"),
                attentionOutputWeight: model.tensor(p + "attentionOutput.weight"),
                attentionOutputBias: model.tensor(p + "attentionOutput.bias"),
                attentionNormWeight: model.tensor(p + "attentionNorm.weight"),
                attentionNormBias: model.tensor(p + "attentionNorm.bias"),
                intermediateWeight: model.tensor(p + "intermediate.weight"),
                intermediateBias: model.tensor(p + "intermediate.bias"),
                outputWeight: model.tensor(p + "output.weight"), outputBias: model.tensor(p + "output.bias"),
                outputNormWeight: model.tensor(p + "outputNorm.weight"), outputNormBias: model.tensor(p + "outputNorm.bias"))
        }
    }

    /// Scratch matrices for batches of up to `tokens` tokens, each sequence at most `sequence` long.
    final class Scratch {
        let capacity: Int
        let hidden, qkv, context, projected, intermediate, scores: UnsafeMutablePointer<Float>

        init(tokens: Int, sequence: Int, configuration c: ModelFile.Configuration) {
            capacity = tokens
            hidden = .allocate(capacity: tokens * c.hidden)
            qkv = .allocate(capacity: tokens * 3 * c.hidden)
            context = .allocate(capacity: tokens * c.hidden)
            projected = .allocate(capacity: tokens * c.hidden)
            intermediate = .allocate(capacity: tokens * c.intermediate)
            scores = .allocate(capacity: sequence * sequence)
        }

        deinit {
            for buffer in [hidden, qkv, context, projected, intermediate, scores] { buffer.deallocate() }
        }
    }

    /// The unit sentence vectors of `sequences` (token ids with [CLS] and [SEP], each at most
    /// `maxPositions` long, together at most `scratch.capacity` tokens), in order.
    func encode(_ sequences: [[Int32]], scratch: Scratch) -> [[Float]] {
        let c = configuration
        let h = c.hidden
        let total = sequences.reduce(0) { $0 + $1.count }
        precondition(total <= scratch.capacity)
        let x = scratch.hidden

        // Embeddings: word + position + token type 0, then layer norm.
        var row = 0
        for ids in sequences {
            for (position, id) in ids.enumerated() {
                let out = x + row * h
                let w = word + Int(id) * h
                let p = self.position + position * h
                for j in 0..<h { out[j] = w[j] + p[j] + tokenType[j] }
                VectorMath.layerNorm(out, columns: h, weight: normWeight, shift: normBias, epsilon: c.layerNormEpsilon)
                row += 1
            }
        }

        for layer in layers {
            attention(layer, sequences: sequences, total: total, scratch: scratch)
            feedForward(layer, total: total, scratch: scratch)
        }
        return pooled(sequences, hidden: x)
    }

    /// Self-attention with the output projection, the residual and the layer norm, into `scratch.hidden`.
    private func attention(_ layer: Layer, sequences: [[Int32]], total: Int, scratch: Scratch) {
        let c = configuration
        let h = c.hidden
        let headSize = h / c.heads
        BLAS.multiplyTransposed(
            m: total, n: 3 * h, k: h, a: scratch.hidden, lda: h, b: layer.qkvWeight, ldb: h, c: scratch.qkv, ldc: 3 * h)
        VectorMath.addBias(scratch.qkv, rows: total, columns: 3 * h, bias: layer.qkvBias)
        let scale = 1 / Float(headSize).squareRoot()
        var start = 0
        for ids in sequences {
            let length = ids.count
            let rows = scratch.qkv + start * 3 * h
            for head in 0..<c.heads {
                let query = rows + head * headSize
                let key = query + h
                let value = query + 2 * h
                BLAS.multiplyTransposed(
                    m: length, n: length, k: headSize, alpha: scale, a: query, lda: 3 * h, b: key, ldb: 3 * h,
                    c: scratch.scores, ldc: length)
                VectorMath.softmaxRows(scratch.scores, rows: length, count: length)
                BLAS.multiply(
                    m: length, n: headSize, k: length, a: scratch.scores, lda: length, b: value, ldb: 3 * h,
                    c: scratch.context + start * h + head * headSize, ldc: h)
            }
            start += length
        }
        BLAS.multiplyTransposed(
            m: total, n: h, k: h, a: scratch.context, lda: h, b: layer.attentionOutputWeight, ldb: h, c: scratch.projected, ldc: h)
        VectorMath.addBiasResidualLayerNorm(
            scratch.projected, bias: layer.attentionOutputBias, residual: scratch.hidden, rows: total, columns: h,
            weight: layer.attentionNormWeight, shift: layer.attentionNormBias, epsilon: c.layerNormEpsilon)
    }

    /// The feed-forward block (dense, GELU, dense) with the residual and the layer norm, into `scratch.hidden`.
    private func feedForward(_ layer: Layer, total: Int, scratch: Scratch) {
        let c = configuration
        BLAS.multiplyTransposed(
            m: total, n: c.intermediate, k: c.hidden, a: scratch.hidden, lda: c.hidden, b: layer.intermediateWeight, ldb: c.hidden,
            c: scratch.intermediate, ldc: c.intermediate)
        VectorMath.addBiasGELU(scratch.intermediate, rows: total, columns: c.intermediate, bias: layer.intermediateBias)
        BLAS.multiplyTransposed(
            m: total, n: c.hidden, k: c.intermediate, a: scratch.intermediate, lda: c.intermediate, b: layer.outputWeight,
            ldb: c.intermediate, c: scratch.projected, ldc: c.hidden)
        VectorMath.addBiasResidualLayerNorm(
            scratch.projected, bias: layer.outputBias, residual: scratch.hidden, rows: total, columns: c.hidden,
            weight: layer.outputNormWeight, shift: layer.outputNormBias, epsilon: c.layerNormEpsilon)
    }

    /// The mean of each sequence's token vectors (every token is real: there is no padding), scaled to length 1.
    private func pooled(_ sequences: [[Int32]], hidden x: UnsafeMutablePointer<Float>) -> [[Float]] {
        let h = configuration.hidden
        var start = 0
        return sequences.map { ids in
            var vector = [Float](repeating: 0, count: h)
            for row in start..<(start + ids.count) {
                let line = x + row * h
                for j in 0..<h { vector[j] += line[j] }
            }
            start += ids.count
            var norm: Float = 0
            for v in vector { norm += v * v }
            let scale = norm > 0 ? 1 / norm.squareRoot() : 0
            for j in 0..<h { vector[j] *= scale }
            return vector
        }
    }
}
