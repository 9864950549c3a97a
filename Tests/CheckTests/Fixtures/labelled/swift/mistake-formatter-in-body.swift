import SwiftUI

struct ReceiptHeader: View {
    let purchased: Date
    let store: String

    var body: some View {
        let dateText = DateFormatter()
        dateText.dateStyle = .medium
        VStack(alignment: .leading) {
            Text(store).font(.headline)
            Text(dateText.string(from: purchased))
        }
    }
}
