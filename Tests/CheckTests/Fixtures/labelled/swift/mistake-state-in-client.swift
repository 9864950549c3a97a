struct QuoteClient {
    var lastQuotes: [Quote] = []
    var latest: (_ limit: Int) async throws -> [Quote]
}
