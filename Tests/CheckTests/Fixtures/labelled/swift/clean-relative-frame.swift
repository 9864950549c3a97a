import SwiftUI

struct GalleryRow: View {
    let photos: [Photo]

    var body: some View {
        ScrollView(.horizontal) {
            LazyHStack {
                ForEach(photos) { photo in
                    PhotoTile(photo: photo)
                        .containerRelativeFrame(.horizontal, count: 3, spacing: 8)
                }
            }
        }
    }
}
