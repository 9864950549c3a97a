import ArgumentParser
import Foundation

extension CLIError {
    /// Prints `error: …` (what went wrong and what to do) on stderr and gives exit 1, the form
    /// DESIGN.md section 6 asks for (swift-argument-parser would print `Error: …`).
    static func report(_ error: any Error) -> ExitCode {
        Terminal.printError("error: \(CLIError(error).description)")
        return ExitCode.failure
    }
}
