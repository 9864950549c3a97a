import SwiftUI

func cell(for block: ContentBlock) -> AnyView {
    switch block.kind {
    case .heading:
        return AnyView(HeadingCell(block: block))
    case .paragraph:
        return AnyView(ParagraphCell(block: block))
    case .quote:
        return AnyView(QuoteCell(block: block))
    }
}
