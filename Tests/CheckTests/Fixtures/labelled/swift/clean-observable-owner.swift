import Observation
import SwiftUI

@Observable
final class CartStore {
    var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
}

struct CartView: View {
    @State private var store = CartStore()

    var body: some View {
        List(store.lines, id: \.self) { Text($0) }
            .toolbar { Button("Add") { store.add("Tea") } }
    }
}
