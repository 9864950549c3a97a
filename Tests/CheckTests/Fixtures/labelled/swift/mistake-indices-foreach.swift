import SwiftUI

struct PlaylistView: View {
    @State private var songs: [String] = []

    var body: some View {
        List {
            ForEach(songs.indices, id: \.self) { index in
                Text(songs[index])
            }
        }
    }
}
