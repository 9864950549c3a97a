import Foundation
import SkillParser
import TestSupport
import Testing

/// Paths the tests read: the parser's fixtures (TestSupport has the package root and the corpus).
enum Paths {
    static let fixtures = packageRoot.appendingPathComponent("Tests/ParserTests/Fixtures")
}

extension Trait where Self == ConditionTrait {
    /// Skips a test that reads ../shared/corpus when the checkout has none beside it.
    static var needsCorpus: Self {
        .enabled(if: corpusPresent, "needs ../shared/corpus, absent beside this checkout")
    }
}

/// Parses the one skill in `folder` as if found under its parent folder.
func loadSkill(_ folder: URL) -> Skill {
    SkillLoader.load(folder: folder, root: folder.deletingLastPathComponent())
}
