import Observation

@Observable
final class AppViewModel {
    var displayName = ""
    var photoURL: URL?
    var usesCelsius = true
    var notificationsOn = false
    var posts: [String] = []
    var savedPosts: [String] = []
    var basketCount = 0
}
