import ArgumentParser
import Foundation
import SkillParser

/// `skill agents`: each agent of the table, its skill folders, whether it is detected here and
/// how many skills each folder holds.
struct AgentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agents",
        abstract: "List the agents skill knows, their skill folders, whether each is detected here and its skill count."
    )

    @Flag(help: "Print the agents as JSON.")
    var json = false

    struct Folder: Encodable {
        var path: String
        /// Skill folders under it, or nil when it does not exist.
        var skills: Int?
    }

    struct AgentReport: Encodable {
        var name: String
        var title: String
        var detected: Bool
        var user: Folder
        var project: Folder
        var alsoReads: [String]
    }

    struct Output: Encodable {
        var schemaVersion = JSONOutput.schemaVersion
        var agents: [AgentReport]
    }

    func run() throws {
        let places = Agent.Places.here
        func folder(_ url: URL) -> Folder {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
            return Folder(path: url.path, skills: exists ? SkillFinder.skillFolders(in: url).count : nil)
        }
        let reports = Agent.all.map { agent in
            AgentReport(
                name: agent.name, title: agent.title, detected: agent.isDetected(places),
                user: folder(agent.folder(project: false, places)), project: folder(agent.folder(project: true, places)),
                alsoReads: agent.readsFoldersOf)
        }
        if json {
            try JSONOutput.write(Output(agents: reports))
            return
        }
        let style = Style.stdout
        func describe(_ folder: Folder) -> String {
            folder.path + "  " + style.dim(folder.skills.map { "\($0) skill\($0 == 1 ? "" : "s")" } ?? "missing")
        }
        var out: [String] = []
        for report in reports {
            let state = report.name == "agents" ? "shared folder" : report.detected ? "detected" : "not detected"
            out.append(style.bold(report.name) + "  " + report.title + "  " + style.dim(state))
            out.append("  user:    " + describe(report.user))
            out.append("  project: " + describe(report.project))
            if !report.alsoReads.isEmpty { out.append("  also reads the folders of: " + report.alsoReads.joined(separator: ", ")) }
        }
        print(out.joined(separator: "\n"))
    }
}
