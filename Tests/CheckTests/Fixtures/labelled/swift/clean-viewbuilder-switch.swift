import SwiftUI

struct BlockCell: View {
    let block: ContentBlock

    var body: some View {
        switch block.kind {
        case .heading: HeadingCell(block: block)
        case .paragraph: ParagraphCell(block: block)
        case .quote: QuoteCell(block: block)
        }
    }
}
