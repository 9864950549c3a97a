nonisolated struct PriceLabel {
    @concurrent
    func text(for amount: Int) async -> String {
        return "\(amount) EUR"
    }
}
