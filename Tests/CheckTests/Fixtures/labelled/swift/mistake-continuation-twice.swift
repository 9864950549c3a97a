import Foundation

func downloadAvatar(from loader: AvatarLoader) async throws -> Data {
    try await withCheckedThrowingContinuation { continuation in
        loader.fetch { result in
            switch result {
            case .success(let data):
                continuation.resume(returning: data)
            case .failure(let error):
                continuation.resume(throwing: error)
            }
            continuation.resume(returning: Data())
        }
    }
}
