import Foundation

class FeatureFlags {
    static var shared = FeatureFlags()
    var darkModeEnabled: Bool = false
    var betaMenus: Bool = false

    func enable(_ name: String) {
        if name == "beta" { betaMenus = true }
    }
}
