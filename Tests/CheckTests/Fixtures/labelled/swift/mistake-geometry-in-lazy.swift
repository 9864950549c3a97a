import SwiftUI

struct GalleryColumn: View {
    let photos: [Photo]

    var body: some View {
        ScrollView {
            LazyVStack {
                ForEach(photos) { photo in
                    GeometryReader { geo in
                        PhotoTile(photo: photo, width: geo.size.width)
                    }
                }
            }
        }
    }
}
