import SwiftUI

@MainActor
@Observable
final class SyncModel {
    var isSyncing = false
    private let sync: @Sendable () async throws -> Void

    init(sync: @escaping @Sendable () async throws -> Void) { self.sync = sync }

    func run() async {
        defer { isSyncing = false }
        try? await sync()
    }
}

struct SyncButton: View {
    let model: SyncModel

    var body: some View {
        Button("Sync now") {
            withAnimation { model.isSyncing = true }
            Task { await model.run() }
        }
        .disabled(model.isSyncing)
    }
}
