actor TicketPool {
    private(set) var remaining = 50

    func reserve(count: Int) -> Bool {
        guard remaining >= count else { return false }
        remaining -= count
        return true
    }

    func release(count: Int) {
        remaining += count
    }
}
