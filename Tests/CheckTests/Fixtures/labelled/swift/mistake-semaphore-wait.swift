import Foundation

func loadSettingsSynchronously(store: SettingsStore) -> Settings? {
    var loaded: Settings?
    let gate = DispatchSemaphore(value: 0)
    Task {
        loaded = await store.load()
        gate.signal()
    }
    gate.wait()
    return loaded
}
