// Rule ids of `skill validate`, `skill lint` and `skill pack`/`install`. Each is documented, with an
// example, in docs/packaging.md.
extension RuleID {
    // validate
    public static let skillFileMissing = RuleID("skill.file.missing")
    public static let skillFileLowercase = RuleID("skill.file.lowercase-name")
    public static let fieldUnknown = RuleID("frontmatter.field.unknown")
    public static let claudeReservedWord = RuleID("claude.name.reserved-word")
    public static let claudeXMLTag = RuleID("claude.xml-tag")
    public static let claudeTooManyFiles = RuleID("claude.too-many-files")
    public static let claudeTooLarge = RuleID("claude.too-large")

    // lint
    public static let lintNoTrigger = RuleID("lint.description.no-trigger")
    public static let lintDescriptionShort = RuleID("lint.description.too-short")
    public static let lintTooManyLines = RuleID("lint.skill-md.too-many-lines")
    public static let lintTooManyTokens = RuleID("lint.skill-md.too-many-tokens")
    public static let lintReferenceDepth = RuleID("lint.reference.too-deep")
    public static let lintBrokenLink = RuleID("lint.link.broken")
    public static let lintFenceNoLanguage = RuleID("lint.fence.no-language")
    public static let lintAntiPatternNoFix = RuleID("lint.anti-pattern.no-fix")
    public static let lintEmptySection = RuleID("lint.section.empty")

    // pack
    public static let packSymlinkOutside = RuleID("pack.symlink.outside")
    public static let packSymlinkFolder = RuleID("pack.symlink.folder")
    public static let packSymlinkBroken = RuleID("pack.symlink.broken")
}
