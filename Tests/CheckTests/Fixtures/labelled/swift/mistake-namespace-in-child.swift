import SwiftUI

struct AlbumCell: View {
    @Namespace private var zoom
    let album: Album

    var body: some View {
        NavigationLink(value: album) {
            AlbumArt(album: album)
                .matchedTransitionSource(id: album.id, in: zoom)
        }
    }
}
