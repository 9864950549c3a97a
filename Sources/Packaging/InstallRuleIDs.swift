import SkillParser

// Why `skill install` refuses an archive or folder; documented in docs/packaging.md.
extension RuleID {
    public static let installUnsafePath = RuleID("install.entry.unsafe-path")
    public static let installAbsolutePath = RuleID("install.entry.absolute-path")
    public static let installBackslash = RuleID("install.entry.backslash")
    public static let installSymlink = RuleID("install.entry.symlink")
    public static let installDuplicate = RuleID("install.entry.duplicate")
    public static let installNestedArchive = RuleID("install.entry.nested-archive")
    public static let installTooManyEntries = RuleID("install.too-many-entries")
    public static let installTooLarge = RuleID("install.too-large")
    public static let installCompressionRatio = RuleID("install.compression-ratio")
    public static let installTopLevel = RuleID("install.top-level")
    public static let installNoSkillFile = RuleID("install.skill-file.missing")
}
