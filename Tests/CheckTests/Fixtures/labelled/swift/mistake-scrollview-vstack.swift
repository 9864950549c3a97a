import SwiftUI

struct MessageHistory: View {
    let messages: [Message]

    var body: some View {
        ScrollView {
            VStack {
                ForEach(messages) { message in
                    MessageBubble(message: message)
                }
            }
        }
    }
}
