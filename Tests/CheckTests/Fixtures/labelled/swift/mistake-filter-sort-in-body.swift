import SwiftUI

struct TaskBoard: View {
    let tasks: [TodoTask]
    let query: String

    var body: some View {
        let matching = tasks.filter { $0.title.contains(query) }
        let ordered = matching.sorted { $0.due > $1.due }

        List(ordered) { task in
            TaskRow(task: task)
        }
    }
}
