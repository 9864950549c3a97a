import SwiftUI

struct BillList: View {
    let bills: [Bill]

    var body: some View {
        let currency = NumberFormatter()
        currency.numberStyle = .currency
        let unpaid = bills
            .filter { $0.due < .now && !$0.settled }
            .sorted { $0.total > $1.total }
        return List(unpaid) { bill in
            Text(currency.string(from: bill.total as NSDecimalNumber)!)
        }
    }
}
