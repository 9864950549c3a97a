import SwiftUI

struct AccountBadge: View {
    @Environment(AuthSession.self) private var session

    var body: some View {
        Text(session.user?.handle ?? "Guest")
    }
}

#Preview {
    AccountBadge()
        .environment(AuthSession.preview)
}
