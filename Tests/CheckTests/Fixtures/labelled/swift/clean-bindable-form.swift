import SwiftUI

@Observable
final class ProfileDraft {
    var name = ""
    var bio = ""
}

struct ProfileForm: View {
    @Bindable var draft: ProfileDraft

    var body: some View {
        Form {
            TextField("Name", text: $draft.name)
            TextField("Bio", text: $draft.bio, axis: .vertical)
        }
    }
}
