import SwiftUI

@MainActor
@Observable
final class ArticlesViewModel {
    var articles: [Article] = []
    var isLoading = false
    let service: NewsService
    init(service: NewsService) { self.service = service }
    func refresh() async {
        isLoading = true
        articles = (try? await service.topStories()) ?? []
        isLoading = false
    }
}
