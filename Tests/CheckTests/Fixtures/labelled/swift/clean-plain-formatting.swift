struct PriceLabel {
    func text(for amount: Int) -> String {
        "\(amount) EUR"
    }
}

let label = PriceLabel().text(for: 12)
