import Foundation
import SkillParser

/// Where `skill install` puts skills (and `skill uninstall` looks): agents from the table in
/// `Agent.all`, the agents detected on this machine, or a folder.
public enum InstallDestination: Hashable, Sendable {
    /// The named agents, in the order given.
    case agents([Agent])
    /// Every agent whose configuration folder exists.
    case allDetected
    /// A skills folder given as a path.
    case folder(String)

    /// Parses a `--to` or `--from` value: `all-detected`, `AGENT[,AGENT…]` (names from the agents
    /// table, `claude` standing for `claude-code`), or a path (it contains `/` or starts with `.`
    /// or `~`).
    /// - Throws: ``PackagingError/unknownAgent(_:)`` for anything else, so that a typo such as
    ///   `cluade` never becomes a folder in the current directory.
    public init(parsing text: String) throws {
        if text == "all-detected" {
            self = .allDetected
        } else if text.contains("/") || text.hasPrefix(".") || text.hasPrefix("~") {
            self = .folder(text)
        } else {
            let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let agents = try names.map { name in
                guard let agent = Agent.named(name) else { throw PackagingError.unknownAgent(name) }
                return agent
            }
            self = .agents(agents)
        }
    }

    /// The folders to write to, each once, with the agents each serves (none for a path). For
    /// `allDetected` with no agent detected, none.
    public func targets(project: Bool, _ places: Agent.Places) -> [Agent.Target] {
        switch self {
        case .agents(let agents):
            return Agent.targets(for: agents, project: project, places)
        case .allDetected:
            return Agent.targets(for: Agent.all.filter { $0.isDetected(places) }, project: project, places)
        case .folder(let path):
            let url: URL
            if path == "~" {
                url = places.home
            } else if path.hasPrefix("~/") {
                url = places.home.appendingPathComponent(String(path.dropFirst(2)))
            } else {
                url = URL(fileURLWithPath: path, relativeTo: places.project)
            }
            return [Agent.Target(folder: url.standardizedFileURL, agents: [])]
        }
    }
}
