actor TicketPool {
    var remaining: Int = 50

    func reserve(count: Int) async -> Bool {
        guard remaining >= count else { return false }
        await audit(count)
        remaining -= count
        return true
    }

    private func audit(_ count: Int) async {}
}
