import SwiftUI

struct LibraryView: View {
    let books: [Book]

    var body: some View {
        NavigationStack {
            List(books) { book in
                NavigationLink(value: book) { Text(book.title) }
            }
            .navigationTitle("Library")
            .navigationDestination(for: Book.self) { book in
                BookDetail(book: book)
            }
        }
    }
}
