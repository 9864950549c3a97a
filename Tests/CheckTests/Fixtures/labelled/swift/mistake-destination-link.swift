import SwiftUI

struct TeamList: View {
    let players: [Player]

    var body: some View {
        NavigationStack {
            List(players) { player in
                NavigationLink(destination: PlayerDetail(player: player)) {
                    Label(player.name, systemImage: player.symbol)
                }
            }
        }
    }
}
