import Observation
import SwiftUI

@Observable
final class CartStore {
    @Published var lines: [String] = []
    @Published var total: Decimal = 0

    func add(_ line: String) {
        lines.append(line)
    }
}

struct CartView: View {
    @StateObject private var store = CartStore()

    var body: some View {
        List(store.lines, id: \.self) { Text($0) }
    }
}
