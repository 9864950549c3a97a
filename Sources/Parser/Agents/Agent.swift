import Foundation

/// A coding agent that reads skill folders, with where it reads them. The table (`Agent.all`)
/// follows each agent's own documentation and the `skills` CLI's table (vercel-labs/skills,
/// `src/agents.ts`); docs/packaging.md gives the source of every folder.
public struct Agent: Hashable, Sendable {
    /// The name `--to` takes (`claude-code`).
    public let name: String
    /// The product's name (`Claude Code`).
    public let title: String
    /// The environment variable that moves the agent's base folder (`CLAUDE_CONFIG_DIR`), if any.
    let baseVariable: String?
    /// The base folder under HOME when `baseVariable` is unset (`.claude`).
    let base: String
    /// The folder whose presence means the agent is installed, relative to the base (`""`: the base).
    let config: String
    /// The user-level skills folder `skill install` writes to, relative to the base.
    let user: String
    /// The project-level skills folder `skill install --project` writes to, relative to the project.
    public let projectFolder: String
    /// Agents whose folders this agent also reads (at the same level), so installing into theirs
    /// serves it too.
    public let readsFoldersOf: [String]
    /// Other project-level folders it reads that nothing installs into (searched by default).
    let otherProjectFolders: [String]
    /// Whether `all-detected` can select it: false for the shared `.agents/skills` entry, which
    /// is a folder, not an agent.
    public let isAgent: Bool

    /// Every agent, in the order default search roots take their folders.
    public static let all: [Agent] = [
        Agent(
            name: "claude-code", title: "Claude Code", baseVariable: "CLAUDE_CONFIG_DIR", base: ".claude", config: "", user: "skills",
            projectFolder: ".claude/skills", readsFoldersOf: [], otherProjectFolders: [], isAgent: true),
        Agent(
            name: "agents", title: "shared .agents/skills", baseVariable: nil, base: ".agents", config: "", user: "skills",
            projectFolder: ".agents/skills", readsFoldersOf: [], otherProjectFolders: [], isAgent: false),
        Agent(
            name: "codex", title: "Codex", baseVariable: "CODEX_HOME", base: ".codex", config: "", user: "skills",
            projectFolder: ".agents/skills", readsFoldersOf: ["agents"], otherProjectFolders: [], isAgent: true),
        Agent(
            name: "gemini-cli", title: "Gemini CLI", baseVariable: nil, base: ".gemini", config: "", user: "skills",
            projectFolder: ".agents/skills", readsFoldersOf: ["agents"], otherProjectFolders: [".gemini/skills"], isAgent: true),
        Agent(
            name: "opencode", title: "OpenCode", baseVariable: "XDG_CONFIG_HOME", base: ".config", config: "opencode",
            user: "opencode/skills",
            projectFolder: ".agents/skills", readsFoldersOf: ["claude-code", "agents"], otherProjectFolders: [".opencode/skills"],
            isAgent: true),
        Agent(
            name: "qwen-code", title: "Qwen Code", baseVariable: nil, base: ".qwen", config: "", user: "skills",
            projectFolder: ".qwen/skills", readsFoldersOf: [], otherProjectFolders: [], isAgent: true),
        Agent(
            name: "cursor", title: "Cursor", baseVariable: nil, base: ".cursor", config: "", user: "skills",
            projectFolder: ".agents/skills", readsFoldersOf: ["claude-code", "codex"],
            otherProjectFolders: [".cursor/skills", ".codex/skills"], isAgent: true),
        Agent(
            name: "github-copilot", title: "GitHub Copilot (VS Code, CLI)", baseVariable: nil, base: ".copilot", config: "", user: "skills",
            projectFolder: ".agents/skills", readsFoldersOf: ["claude-code", "agents"], otherProjectFolders: [".github/skills"],
            isAgent: true),
    ]

    /// Older names `--to` keeps accepting.
    static let aliases = ["claude": "claude-code"]

    /// The agent called `name` (or an alias such as `claude`).
    public static func named(_ name: String) -> Agent? {
        let name = aliases[name] ?? name
        return all.first { $0.name == name }
    }

    /// The names `--to` accepts, for messages.
    public static var names: [String] { all.map(\.name) }

    /// Where this process finds folders: HOME, the project folder and the environment.
    public struct Places: Sendable {
        /// The user's home folder.
        public var home: URL
        /// The project folder (the working folder) for project-level folders.
        public var project: URL
        /// Read for the variables that move an agent's folder (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`,
        /// `XDG_CONFIG_HOME`).
        public var environment: [String: String]

        /// The places of a process or a test.
        public init(home: URL, project: URL, environment: [String: String]) {
            self.home = home
            self.project = project
            self.environment = environment
        }
    }

    func baseFolder(_ places: Places) -> URL {
        if let variable = baseVariable, let value = places.environment[variable], !value.isEmpty {
            return URL(fileURLWithPath: value).standardizedFileURL
        }
        return places.home.appendingPathComponent(base)
    }

    /// The folder `skill install` writes to: user-level, or project-level with `project`.
    public func folder(project: Bool, _ places: Places) -> URL {
        project ? places.project.appendingPathComponent(projectFolder) : baseFolder(places).appendingPathComponent(user)
    }

    /// Every folder the agent reads at one level: its own, those of the agents it reads, and (at
    /// project level) its other folders; without repeats.
    public func readFolders(project: Bool, _ places: Places) -> [URL] {
        var folders = [folder(project: project, places)]
        folders += readsFoldersOf.compactMap { Agent.named($0)?.folder(project: project, places) }
        if project { folders += otherProjectFolders.map { places.project.appendingPathComponent($0) } }
        var seen = Set<String>()
        return folders.filter { seen.insert($0.path).inserted }
    }

    /// Every folder any agent reads, project level first (in table order), each once: the
    /// default search roots after `./skills`.
    public static func skillFolders(_ places: Places) -> [URL] {
        var seen = Set<String>()
        return [true, false].flatMap { project in all.flatMap { $0.readFolders(project: project, places) } }
            .filter { seen.insert($0.path).inserted }
    }

    /// Whether the agent's configuration folder exists (the `skills` CLI's test).
    public func isDetected(_ places: Places) -> Bool {
        let folder = config.isEmpty ? baseFolder(places) : baseFolder(places).appendingPathComponent(config)
        var isDirectory: ObjCBool = false
        return isAgent && FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// One folder to install into and the agents it serves.
    public struct Target: Hashable, Sendable {
        /// The skills folder.
        public var folder: URL
        /// The agents that read it (empty for a folder given as a path).
        public var agents: [String]

        /// A folder and the agents it serves.
        public init(folder: URL, agents: [String]) {
            self.folder = folder
            self.agents = agents
        }
    }

    /// The folders to install into so that each of `agents` sees the skill, each folder once:
    /// agents are taken in the order given; one that already reads a chosen folder is served by
    /// it, any other adds its own folder. Folders are compared by real path.
    public static func targets(for agents: [Agent], project: Bool, _ places: Places) -> [Target] {
        var targets: [Target] = []
        func real(_ url: URL) -> String { url.resolvingSymlinksInPath().standardizedFileURL.path }
        for agent in agents {
            let reads = Set(agent.readFolders(project: project, places).map(real))
            if let index = targets.firstIndex(where: { reads.contains(real($0.folder)) }) {
                if !targets[index].agents.contains(agent.name) { targets[index].agents.append(agent.name) }
            } else {
                targets.append(Target(folder: agent.folder(project: project, places), agents: [agent.name]))
            }
        }
        return targets
    }
}
