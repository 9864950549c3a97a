import ArgumentParser
import Foundation
import SkillParser

/// Writing to the terminal: diagnostics and errors on stderr.
enum Terminal {
    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("\(message)\n".utf8))
    }

    /// One `warning: …` line on stderr.
    static func printWarning(_ message: String) {
        FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
    }

    static func printDiagnostics(_ diagnostics: [Diagnostic]) {
        guard !diagnostics.isEmpty else { return }
        FileHandle.standardError.write(Data(diagnostics.map { $0.formatted + "\n" }.joined().utf8))
    }
}

/// An environment failure shown as one `error: …` line on stderr, exit 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String

    init(_ error: any Error) {
        description = (error as? LocalizedError)?.errorDescription ?? "\(error)"
    }

    init(message: String) {
        description = message
    }
}
