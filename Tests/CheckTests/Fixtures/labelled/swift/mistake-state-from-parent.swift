import SwiftUI

struct Recipe: Identifiable, Hashable {
    let id: UUID
    var name: String
    var minutes: Int
}

struct RecipeList: View {
    let recipes: [Recipe]

    var body: some View {
        List(recipes) { recipe in
            RecipeCard(recipe: recipe)
        }
    }
}

struct RecipeCard: View {
    @State var recipe: Recipe
    var body: some View { Text(recipe.name) }
}
