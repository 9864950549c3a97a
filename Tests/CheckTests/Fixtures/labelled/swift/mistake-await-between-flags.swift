import SwiftUI

struct SyncButton: View {
    @State private var isSyncing = false
    let sync: () async -> Void

    var body: some View {
        Button("Sync now") {
            Task {
                isSyncing = true
                await sync()
                isSyncing = false
            }
        }
        .opacity(isSyncing ? 0.5 : 1)
        .animation(.easeInOut, value: isSyncing)
    }
}
