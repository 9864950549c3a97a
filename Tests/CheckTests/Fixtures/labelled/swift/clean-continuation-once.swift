import Foundation

func downloadAvatar(from loader: AvatarLoader) async throws -> Data {
    try await withCheckedThrowingContinuation { continuation in
        loader.fetch { result in
            continuation.resume(with: result)
        }
    }
}
