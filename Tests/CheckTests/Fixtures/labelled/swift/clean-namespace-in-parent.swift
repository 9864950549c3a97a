import SwiftUI

struct AlbumBrowser: View {
    @Namespace private var zoom
    let albums: [Album]

    var body: some View {
        NavigationStack {
            AlbumGrid(albums: albums, zoom: zoom)
                .navigationDestination(for: Album.self) { album in
                    AlbumDetail(album: album)
                        .navigationTransition(.zoom(sourceID: album.id, in: zoom))
                }
        }
    }
}
