/// Finds the Swift words people search for in code: attributes (`@State`), macros (`#expect`),
/// modifiers with their first label (`.task(id:)`) and type names (`NavigationStack`).
enum KeywordScanner {
    private static let limit = 40

    /// The keywords of one block's code, in order, duplicates kept (``merge(_:)`` drops them).
    static func scan(_ code: [String]) -> [String] {
        code.flatMap(scan)
    }

    /// Keywords of several blocks' scans in order of first appearance, without duplicates, at
    /// most 40.
    static func merge(_ scans: [[String]]) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for scan in scans {
            for word in scan where seen.insert(word).inserted {
                out.append(word)
                if out.count == limit { return out }
            }
        }
        return out
    }

    private static func isIdentifier(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F
    }

    private static func isUpper(_ c: UInt8) -> Bool { c >= 0x41 && c <= 0x5A }
    private static func isLower(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7A }

    private static func scan(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        var words: [String] = []
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            let previous: UInt8 = i > 0 ? bytes[i - 1] : 0x20
            guard !isIdentifier(previous) else {
                i += 1
                continue
            }
            var end = i + 1
            while end < bytes.count, isIdentifier(bytes[end]) { end += 1 }
            let length = end - i - 1
            switch c {
            case UInt8(ascii: "@") where length >= 2 && isUpper(bytes[i + 1]) || length >= 4 && isLower(bytes[i + 1]):
                words.append(String(decoding: bytes[i..<end], as: UTF8.self))
            case UInt8(ascii: "#") where length >= 3 && isIdentifier(bytes[i + 1]) && previous != UInt8(ascii: "&"):
                words.append(String(decoding: bytes[i..<end], as: UTF8.self))
            case UInt8(ascii: ".") where length >= 3 && isLower(bytes[i + 1]) && end < bytes.count && bytes[end] == UInt8(ascii: "("):
                // `.task(id:)`: keep the first argument label when there is one.
                var name = String(decoding: bytes[i..<end], as: UTF8.self)
                var j = end + 1
                while j < bytes.count, isIdentifier(bytes[j]) { j += 1 }
                if j > end + 1, j < bytes.count, bytes[j] == UInt8(ascii: ":") {
                    name += "(" + String(decoding: bytes[(end + 1)..<j], as: UTF8.self) + ":)"
                }
                words.append(name)
            case _ where isUpper(c):
                // Type names of two or more humps: `NavigationStack`, `URLSession`.
                let word = bytes[i..<end]
                let humps = word.indices.filter { k in
                    isUpper(word[k]) && (k == i || isLower(word[k - 1]) || (k + 1 < end && isLower(word[k + 1])))
                }.count
                if length >= 3, humps >= 2, word.contains(where: isLower) {
                    words.append(String(decoding: word, as: UTF8.self))
                }
            default:
                break
            }
            i = end
        }
        return words
    }
}
