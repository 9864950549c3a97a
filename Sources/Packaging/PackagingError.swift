import Foundation
import SkillParser

/// Failures of the environment while packing or installing (content problems are diagnostics).
public enum PackagingError: LocalizedError, Equatable {
    case notAFolder(String)
    case unreadable(String, String)
    case unwritable(String, String)
    case corruptArchive(String, String)
    case alreadyInstalled(String)
    case notInstalled(String)
    case invalidName(String)
    case moveFailed(String, String)
    case unknownAgent(String)
    case noAgentDetected

    public var errorDescription: String? {
        switch self {
        case .notAFolder(let path):
            return "\(path): not a skill folder; give the folder that holds SKILL.md"
        case .unreadable(let path, let why):
            return "\(path): cannot be read (\(why)); check that it exists and is readable"
        case .unwritable(let path, let why):
            return "\(path): cannot be written (\(why)); check the folder exists and is writable"
        case .corruptArchive(let path, let why):
            return "\(path): not a readable zip archive (\(why)); make it again with 'skill pack'"
        case .alreadyInstalled(let path):
            return "\(path) already exists; pass --force to replace it, or 'skill uninstall' it first"
        case .notInstalled(let path):
            return "\(path): no skill installed there; 'skill list' shows the installed skills"
        case .invalidName(let name):
            return "'\(Echo.bounded(name))' is not a skill name; give the name of an installed skill, such as 'pdf'"
        case .moveFailed(let path, let why):
            return "\(path): could not move the skill into place (\(why)); nothing was changed"
        case .unknownAgent(let name):
            return
                "'\(name)' is neither an agent nor a path; give one of \(Agent.names.joined(separator: ", ")), all-detected, or a folder path (with a '/', or starting with '.' or '~')"
        case .noAgentDetected:
            return "no agent detected (none of their configuration folders exists); name an agent with --to, or run 'skill agents'"
        }
    }
}
