import Foundation

/// Logging to stderr, one line per message; stdout belongs to the protocol.
public struct ServerLog: Sendable {
    /// How much to log.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case off = 0
        case error, warning, info, debug

        /// The level named `name` (`off`, `error`, `warning`, `info`, `debug`).
        public init?(name: String) {
            switch name.lowercased() {
            case "off", "none", "quiet": self = .off
            case "error": self = .error
            case "warning", "warn": self = .warning
            case "info": self = .info
            case "debug", "trace": self = .debug
            default: return nil
            }
        }

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    public var level: Level

    /// A log writing messages at `level` and above.
    public init(level: Level) { self.level = level }

    public func error(_ message: @autoclosure () -> String) { write(.error, message) }
    public func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    public func info(_ message: @autoclosure () -> String) { write(.info, message) }
    public func debug(_ message: @autoclosure () -> String) { write(.debug, message) }

    private func write(_ at: Level, _ message: () -> String) {
        guard at <= level, level != .off else { return }
        let line = "skill serve: \(at): \(message())\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
