import SwiftUI

@Observable
final class ProfileModel {
    var name = ""
    let api: ProfileAPI
    init(api: ProfileAPI) { self.api = api }
}

struct ProfileScreen: View {
    @Environment(ProfileAPI.self) private var api
    @State private var model: ProfileModel?

    var body: some View {
        Form {
            TextField("Name", text: Binding(
                get: { model?.name ?? "" },
                set: { model?.name = $0 }
            ))
        }
        .onAppear {
            model = ProfileModel(api: api)
        }
    }
}
