import Foundation

/// ANSI styles for human output: only when stdout is a terminal and NO_COLOR is not set.
struct Style {
    let enabled: Bool

    static let stdout = Style(enabled: isatty(1) != 0 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty)

    func bold(_ s: String) -> String { wrap(s, "1") }
    func dim(_ s: String) -> String { wrap(s, "2") }
    func cyan(_ s: String) -> String { wrap(s, "36") }
    func yellow(_ s: String) -> String { wrap(s, "33") }
    func green(_ s: String) -> String { wrap(s, "32") }
    func red(_ s: String) -> String { wrap(s, "31") }
    func highlight(_ s: String) -> String { wrap(s, "1;33") }

    private func wrap(_ s: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }

    /// A snippet whose matches are marked `**word**`: highlighted on a terminal, plain otherwise.
    func snippet(_ s: String) -> String {
        let parts = s.components(separatedBy: "**")
        guard parts.count > 2 else { return s }
        return parts.enumerated().map { $0.offset % 2 == 1 ? highlight($0.element) : $0.element }.joined()
    }

    /// The terminal's width: COLUMNS when set, else the terminal's, else 100.
    static var width: Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 20 { return columns }
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 { return Int(size.ws_col) }
        return 100
    }
}

extension String {
    /// At most `width` characters, with `…` when cut.
    func clipped(_ width: Int) -> String {
        count <= width ? self : String(prefix(max(width - 1, 1))) + "…"
    }
}

/// `n thing` or `n things`.
func count<N: BinaryInteger>(_ n: N, _ singular: String, _ plural: String? = nil) -> String {
    "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
}
