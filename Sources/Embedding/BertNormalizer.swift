import Foundation

/// BERT's uncased text normalisation and pre-tokenisation, as Hugging Face `tokenizers` does it for
/// all-MiniLM-L6-v2 (`BertNormalizer` with clean_text, handle_chinese_chars, lowercase and accent
/// stripping, then `BertPreTokenizer`), in the same order.
///
/// The reference classifies characters (control, nonspacing mark, punctuation) with the tables of
/// the Rust crate `unicode_categories`, which stop at Unicode 8.0: a character assigned later is
/// unassigned there, so it is neither dropped nor split off. Swift's tables are newer; a
/// character younger than `referenceUnicode` is treated as the reference treats it.
enum BertNormalizer {
    static let referenceUnicode = (major: 8, minor: 0)

    /// The general category the reference sees: `.unassigned` for characters it does not know.
    private static func category(_ scalar: Unicode.Scalar) -> Unicode.GeneralCategory {
        guard let age = scalar.properties.age,
            age.major < referenceUnicode.major || (age.major == referenceUnicode.major && age.minor <= referenceUnicode.minor)
        else { return .unassigned }
        return scalar.properties.generalCategory
    }

    /// The words of `text`: normalised, split on whitespace, each punctuation character a word of its own.
    static func words(_ text: String) -> [[Unicode.Scalar]] {
        var words: [[Unicode.Scalar]] = []
        var word: [Unicode.Scalar] = []
        for scalar in normalized(text).unicodeScalars {
            if scalar.properties.isWhitespace {
                if !word.isEmpty { words.append(word) }
                word.removeAll(keepingCapacity: true)
            } else if isPunctuation(scalar) {
                if !word.isEmpty { words.append(word) }
                word.removeAll(keepingCapacity: true)
                words.append([scalar])
            } else {
                word.append(scalar)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// Control characters and U+0000/U+FFFD dropped, whitespace made a space, CJK ideographs spaced
    /// apart, then NFD without nonspacing marks (accents), then each character lowercased.
    static func normalized(_ text: String) -> String {
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value == 0 || scalar.value == 0xFFFD || isControl(scalar) { continue }
            if isWhitespace(scalar) {
                cleaned.append(" ")
            } else if isCJK(scalar) {
                cleaned.append(" ")
                cleaned.append(scalar)
                cleaned.append(" ")
            } else {
                cleaned.append(scalar)
            }
        }
        var result = String.UnicodeScalarView()
        for scalar in String(cleaned).decomposedStringWithCanonicalMapping.unicodeScalars
        where category(scalar) != .nonspacingMark {
            if scalar.isASCII {
                result.append(scalar.properties.isUppercase ? Unicode.Scalar(scalar.value + 32)! : scalar)
            } else {
                result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(result)
    }

    /// Tab, newline and carriage return count as whitespace, not control.
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar.properties.isWhitespace
    }

    /// General categories Cc, Cf and Co, less tab, newline and carriage return. Unassigned code
    /// points stay, as in the reference (they become part of a word, usually [UNK]).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\t" || scalar == "\n" || scalar == "\r" { return false }
        switch category(scalar) {
        case .control, .format, .privateUse, .surrogate: return true
        default: return false
        }
    }

    /// ASCII punctuation and symbols (BERT splits `$`, `+`, `^` … as punctuation) or Unicode P*.
    private static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 33...47, 58...64, 91...96, 123...126: return true
        default: break
        }
        switch category(scalar) {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }

    /// The CJK Unified Ideographs blocks BERT spaces apart (not Hiragana, Katakana or Hangul).
    private static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F, 0x2B740...0x2B81F,
            0x2B820...0x2CEAF, 0xF900...0xFAFF, 0x2F800...0x2FA1F:
            return true
        default:
            return false
        }
    }
}
