import SwiftUI

struct WeatherClient: Sendable {
    var week: @Sendable () async throws -> [Day]
}

struct WeatherScreen: View {
    let client: WeatherClient
    @State private var forecast: [Day] = []

    var body: some View {
        List(forecast) { day in Text(day.summary) }
            .task { forecast = (try? await client.week()) ?? [] }
    }
}
