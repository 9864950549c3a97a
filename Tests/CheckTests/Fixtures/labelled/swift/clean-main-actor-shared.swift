import Foundation

@MainActor
final class FeatureFlags {
    static let shared = FeatureFlags()
    private(set) var betaMenus = false

    func enable(_ name: String) {
        if name == "beta" { betaMenus = true }
    }
}
