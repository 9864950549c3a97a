import ArgumentParser
import Foundation
import SkillPackaging
import SkillParser

extension Agent.Places {
    /// This process's HOME, working folder and environment.
    static var here: Agent.Places {
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return Agent.Places(
            home: URL(fileURLWithPath: home), project: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            environment: environment)
    }
}

extension InstallDestination {
    /// Parses a `--to`/`--from` value; an unknown agent is a usage error (exit 64).
    static func option(_ text: String) throws -> InstallDestination {
        do {
            return try InstallDestination(parsing: text)
        } catch {
            throw ValidationError(CLIError(error).description)
        }
    }

    /// The folders for this process, each once; an error when `all-detected` finds no agent.
    func targetsHere(project: Bool) throws -> [Agent.Target] {
        let targets = targets(project: project, .here)
        if targets.isEmpty { throw CLIError(PackagingError.noAgentDetected) }
        return targets
    }
}
