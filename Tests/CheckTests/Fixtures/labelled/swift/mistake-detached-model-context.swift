import SwiftData

func rename(notes: [Note], to title: String) {
    let first = notes.first!
    Task.detached {
        first.title = title
    }
}
