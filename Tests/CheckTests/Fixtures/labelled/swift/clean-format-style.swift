import SwiftUI

struct ReceiptHeader: View {
    let purchased: Date
    let total: Decimal

    var body: some View {
        VStack(alignment: .leading) {
            Text(purchased, format: .dateTime.day().month().year())
            Text(total, format: .currency(code: "EUR"))
        }
    }
}
