import Foundation

/// A model file of format `SKILLEMB` version 1 (docs/embedding.md), mapped and validated: the
/// encoder's configuration, its fp32 tensors in place, and the vocabulary.
struct ModelFile: Sendable {
    static let magic = Array("SKILLEMB".utf8)
    static let version: UInt32 = 1
    /// Magic, version and header length.
    static let preambleSize = 16
    static let alignment = 64

    /// The BERT encoder's shape.
    struct Configuration: Codable, Equatable, Sendable {
        var hidden: Int
        var heads: Int
        var layers: Int
        var intermediate: Int
        var maxPositions: Int
        var vocabularySize: Int
        var layerNormEpsilon: Float
    }

    private struct Header: Decodable {
        struct Tensor: Decodable {
            var offset: Int
            var shape: [Int]
        }
        struct Vocabulary: Decodable {
            var offset: Int
            var length: Int
            var count: Int
        }
        var model: String
        var config: Configuration
        var tensors: [String: Tensor]
        var vocabulary: Vocabulary
        var fileSize: Int
    }

    let modelName: String
    let configuration: Configuration
    /// The vocabulary: UTF-8 pieces in id order, "\n" between.
    let vocabulary: [UInt8]
    private let file: MappedFile
    private let tensors: [String: (offset: Int, count: Int)]

    /// Maps and checks the file at `path`: magic, version, size, and every tensor the encoder reads
    /// present with its expected shape, aligned and inside the file.
    /// - Throws: `EmbeddingError`.
    init(path: String) throws {
        let file = try MappedFile(path: path)
        func unsupported(_ reason: String) -> EmbeddingError { .unsupportedModel(path: path, reason: reason) }
        guard file.size >= Self.preambleSize else {
            throw EmbeddingError.truncatedModel(path: path, size: file.size, expected: Self.preambleSize)
        }
        let bytes = UnsafeRawBufferPointer(start: file.base, count: file.size)
        guard Array(bytes[0..<8]) == Self.magic else { throw unsupported("it does not start with SKILLEMB") }
        let version = bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
        guard version == Self.version else { throw unsupported("format version \(version), this skill reads \(Self.version)") }
        let headerLength = Int(bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
        guard Self.preambleSize + headerLength <= file.size else {
            throw EmbeddingError.truncatedModel(path: path, size: file.size, expected: Self.preambleSize + headerLength)
        }
        let headerBytes = Data(bytes[Self.preambleSize..<(Self.preambleSize + headerLength)])
        guard let header = try? JSONDecoder().decode(Header.self, from: headerBytes) else { throw unsupported("its header is not valid") }
        guard header.fileSize == file.size else {
            if file.size < header.fileSize { throw EmbeddingError.truncatedModel(path: path, size: file.size, expected: header.fileSize) }
            throw unsupported("\(file.size) bytes where its header says \(header.fileSize)")
        }
        let config = header.config
        var table: [String: (offset: Int, count: Int)] = [:]
        for (name, shape) in Self.expectedShapes(config) {
            guard let tensor = header.tensors[name] else { throw unsupported("no tensor \(name)") }
            guard tensor.shape == shape else { throw unsupported("tensor \(name) has shape \(tensor.shape), expected \(shape)") }
            let count = shape.reduce(1, *)
            guard tensor.offset % Self.alignment == 0, tensor.offset >= Self.preambleSize + headerLength,
                tensor.offset + count * MemoryLayout<Float>.size <= file.size
            else { throw unsupported("tensor \(name) lies outside the file or is misaligned") }
            table[name] = (tensor.offset, count)
        }
        let v = header.vocabulary
        guard v.offset >= 0, v.length >= 0, v.offset + v.length <= file.size else {
            throw unsupported("the vocabulary lies outside the file")
        }
        let vocabulary = Array(bytes[v.offset..<(v.offset + v.length)])
        let pieces = vocabulary.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        guard pieces == v.count, v.count == config.vocabularySize, v.count > WordPieceTokenizer.separatorID else {
            throw unsupported("\(pieces) vocabulary entries where the configuration says \(config.vocabularySize)")
        }
        guard config.hidden > 0, config.heads > 0, config.hidden % config.heads == 0, config.layers > 0, config.maxPositions > 2 else {
            throw unsupported("an impossible configuration")
        }
        self.file = file
        self.tensors = table
        self.modelName = header.model
        self.configuration = config
        self.vocabulary = vocabulary
    }

    /// The fp32 tensor `name` (one the encoder reads; see `expectedShapes`), in row-major order.
    func tensor(_ name: String) -> UnsafePointer<Float> {
        guard let entry = tensors[name] else { preconditionFailure("no tensor \(name) was validated") }
        return (file.base + entry.offset).assumingMemoryBound(to: Float.self)
    }

    /// Every tensor the encoder reads, with its shape.
    static func expectedShapes(_ c: Configuration) -> [(String, [Int])] {
        let h = c.hidden
        var shapes: [(String, [Int])] = [
            ("embeddings.word", [c.vocabularySize, h]),
            ("embeddings.position", [c.maxPositions, h]),
            ("embeddings.tokenType", [2, h]),
            ("embeddings.norm.weight", [h]),
            ("embeddings.norm.bias", [h]),
        ]
        for layer in 0..<c.layers {
            let p = "layer\(layer)."
            shapes += [
                (p + "qkv.weight", [3 * h, h]),
                (p + "qkv.bias", [3 * h]),
                (p + "attentionOutput.weight", [h, h]),
                (p + "attentionOutput.bias", [h]),
                (p + "attentionNorm.weight", [h]),
                (p + "attentionNorm.bias", [h]),
                (p + "intermediate.weight", [c.intermediate, h]),
                (p + "intermediate.bias", [c.intermediate]),
                (p + "output.weight", [h, c.intermediate]),
                (p + "output.bias", [h]),
                (p + "outputNorm.weight", [h]),
                (p + "outputNorm.bias", [h]),
            ]
        }
        return shapes
    }
}
