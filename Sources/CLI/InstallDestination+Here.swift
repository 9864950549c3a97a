import Foundation
import SkillPackaging

extension InstallDestination {
    /// The skills folder this destination names for this process: its HOME and working folder.
    func folderHere(project: Bool) -> URL {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        return folder(project: project, home: URL(fileURLWithPath: home), cwd: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    }
}
