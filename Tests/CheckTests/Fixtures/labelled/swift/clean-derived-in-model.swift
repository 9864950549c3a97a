import SwiftUI

@Observable
final class TaskBoardModel {
    var tasks: [TodoTask] = []
    var query = ""

    var visible: [TodoTask] {
        tasks.filter { query.isEmpty || $0.title.localizedStandardContains(query) }
    }
}

struct TaskBoard: View {
    let model: TaskBoardModel

    var body: some View {
        List(model.visible) { task in TaskRow(task: task) }
            .searchable(text: Bindable(model).query)
    }
}
