import SwiftUI

struct MessageHistory: View {
    let messages: [Message]

    var body: some View {
        ScrollView {
            LazyVStack(alignment: .leading, spacing: 8) {
                ForEach(messages) { message in
                    MessageBubble(message: message)
                        .frame(height: 60)
                }
            }
            .padding()
        }
    }
}
