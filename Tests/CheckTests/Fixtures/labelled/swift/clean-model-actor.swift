import SwiftData

@ModelActor
actor NoteRenamer {
    func rename(_ id: PersistentIdentifier, to title: String) throws {
        guard let note = modelContext.model(for: id) as? Note else { return }
        note.title = title
        try modelContext.save()
    }
}
