import SwiftUI

struct MailRoot: View {
    @State private var selection: Mailbox?

    var body: some View {
        NavigationSplitView {
            MailboxList(selection: $selection)
        } detail: {
            if let selection {
                MailboxSummary(mailbox: selection)
            } else {
                ContentUnavailableView("No Mailbox", systemImage: "tray")
            }
        }
    }
}
