import SwiftUI

struct AccountBadge: View {
    @AppStorage("username") private var storedName = ""
    var body: some View { Text(storedName) }
}
