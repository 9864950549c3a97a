import SwiftUI

struct WeatherScreen: View {
    @State private var forecast: [Day] = []
    private let client = WeatherClient(session: URLSession.shared, baseURL: URL(string: "https://example.com")!)

    var body: some View {
        List(forecast) { day in Text(day.summary) }
            .task { forecast = (try? await client.week()) ?? [] }
    }
}
