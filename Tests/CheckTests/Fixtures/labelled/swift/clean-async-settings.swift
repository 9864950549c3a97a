import Foundation

struct SettingsLoader {
    let store: SettingsStore

    func load() async -> Settings {
        if let saved = await store.load() {
            return saved
        }
        return Settings()
    }
}
