import SwiftUI

struct CounterView: View {
    @State private var count = 0

    var body: some View {
        Stepper("Count: \(count)", value: $count)
    }
}

struct RecipeCard: View {
    let recipe: Recipe
    var body: some View { Text(recipe.name) }
}
