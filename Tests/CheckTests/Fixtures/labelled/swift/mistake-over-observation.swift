import Combine
import SwiftUI

final class SessionState: ObservableObject {
    @Published var account: Account?
    @Published var drafts: [Draft] = []
    @Published var filterText = ""
    @Published var currentTab = 0
    @Published var showsWelcome = false
}
