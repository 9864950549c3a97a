import Foundation

/// Why a model file cannot be used. Each message says what to do.
public enum EmbeddingError: Error, Equatable, LocalizedError {
    /// No file at the path.
    case missingModel(path: String)
    /// The file is shorter than its header says, or too short to hold a header.
    case truncatedModel(path: String, size: Int, expected: Int)
    /// Not a model file of this format and version, or one whose header or tensors do not fit the encoder.
    case unsupportedModel(path: String, reason: String)
    /// The file exists but cannot be opened or mapped.
    case unreadableModel(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .missingModel(let path):
            return "no sentence encoder model at \(path): run scripts/setup to make it (or set SKILL_MODEL to its path)"
        case .truncatedModel(let path, let size, let expected):
            return "the model file \(path) is truncated (\(size) of \(expected) bytes): delete it and run scripts/setup again"
        case .unsupportedModel(let path, let reason):
            return "\(path) is not a model file this skill can read (\(reason)): delete it and run scripts/setup again"
        case .unreadableModel(let path, let reason):
            return "cannot read the model file \(path): \(reason)"
        }
    }
}
