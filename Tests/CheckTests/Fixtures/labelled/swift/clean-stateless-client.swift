struct QuoteClient: Sendable {
    var latest: @Sendable (_ limit: Int) async throws -> [Quote]

    static let preview = QuoteClient(latest: { _ in [] })
}
