import CCmark

/// The only place that touches cmark: parses CommonMark and copies every block into ``Block``
/// values at once, walking cmark's tree with its iterator (no recursion, so no stack overflow on
/// deeply nested input).
enum CMarkConverter {
    /// Parses `markdown` and returns its blocks in document order.
    /// - Parameter lineOffset: added to cmark's 1-based lines (the lines of the stripped frontmatter).
    static func blocks(of markdown: Substring, lineOffset: Int) -> [Block] {
        func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> OpaquePointer? {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                cmark_parse_document($0, bytes.count, CMARK_OPT_SOURCEPOS)
            }
        }
        let parsed = markdown.utf8.withContiguousStorageIfAvailable(parse) ?? Array(markdown.utf8).withUnsafeBufferPointer(parse)
        guard let document = parsed else { return [] }
        defer { cmark_node_free(document) }
        guard let iterator = cmark_iter_new(document) else { return [] }
        defer { cmark_iter_free(iterator) }

        var blocks: [Block] = []
        var open: [Int] = []  // indices of blocks that have been entered and not exited
        var containers = 0

        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if event == CMARK_EVENT_EXIT {
                if type.rawValue <= CMARK_NODE_LAST_BLOCK.rawValue, type != CMARK_NODE_DOCUMENT, !open.isEmpty {
                    let index = open.removeLast()
                    if isContainer(blocks[index].kind) { containers -= 1 }
                }
                continue
            }
            if let kind = blockKind(node, type) {
                let parent = open.last(where: { isContainer(blocks[$0].kind) })
                var block = Block(
                    kind: kind,
                    line: Int(cmark_node_get_start_line(node)) + lineOffset,
                    endLine: max(Int(cmark_node_get_end_line(node)), Int(cmark_node_get_start_line(node))) + lineOffset,
                    depth: containers,
                    parent: parent)
                switch kind {
                case .code, .html:
                    block.text = literal(node)
                default:
                    break
                }
                blocks.append(block)
                // Leaf blocks without inline content get no exit event.
                switch kind {
                case .code, .html, .rule:
                    break
                default:
                    open.append(blocks.count - 1)
                    if isContainer(kind) { containers += 1 }
                }
                continue
            }
            // Inline content goes to the innermost open heading or paragraph.
            guard let index = open.last, !isContainer(blocks[index].kind) else { continue }
            switch type {
            case CMARK_NODE_TEXT:
                blocks[index].text += literal(node)
            case CMARK_NODE_CODE:
                let code = literal(node)
                blocks[index].text += code
                blocks[index].inlineCode.append(code)
            case CMARK_NODE_SOFTBREAK:
                blocks[index].text += " "
            case CMARK_NODE_LINEBREAK:
                blocks[index].text += "\n"
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                if let url = cmark_node_get_url(node) { blocks[index].links.append(String(cString: url)) }
            default:
                break
            }
        }
        return blocks
    }

    private static func isContainer(_ kind: Block.Kind) -> Bool {
        switch kind {
        case .list, .item, .quote: return true
        default: return false
        }
    }

    private static func blockKind(_ node: OpaquePointer, _ type: cmark_node_type) -> Block.Kind? {
        switch type {
        case CMARK_NODE_HEADING:
            return .heading(level: Int(cmark_node_get_heading_level(node)))
        case CMARK_NODE_PARAGRAPH:
            return .paragraph
        case CMARK_NODE_CODE_BLOCK:
            let info = cmark_node_get_fence_info(node).map { String(cString: $0) } ?? ""
            return .code(info: info)
        case CMARK_NODE_LIST:
            return .list(ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST)
        case CMARK_NODE_ITEM:
            return .item
        case CMARK_NODE_BLOCK_QUOTE:
            return .quote
        case CMARK_NODE_HTML_BLOCK:
            return .html
        case CMARK_NODE_THEMATIC_BREAK:
            return .rule
        default:
            return nil
        }
    }

    private static func literal(_ node: OpaquePointer) -> String {
        cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
    }
}
