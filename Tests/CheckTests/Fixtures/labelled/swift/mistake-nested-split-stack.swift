import SwiftUI

struct MailRoot: View {
    @State private var selection: Mailbox?

    var body: some View {
        NavigationSplitView {
            MailboxList(selection: $selection)
        } detail: {
            NavigationStack {
                MailboxSummary(mailbox: selection)
            }
        }
    }
}
