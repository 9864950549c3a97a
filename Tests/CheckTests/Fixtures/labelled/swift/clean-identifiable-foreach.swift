import SwiftUI

struct Song: Identifiable {
    let id = UUID()
    var title: String
}

struct PlaylistView: View {
    @State private var songs: [Song] = []

    var body: some View {
        List {
            ForEach(songs) { song in
                Text(song.title)
            }
            .onDelete { songs.remove(atOffsets: $0) }
        }
    }
}
