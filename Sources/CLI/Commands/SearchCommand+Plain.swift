extension SearchCommand {
    /// `skill search WORD…` with no option (no argument after `search` starts with `-`), made
    /// without the argument parser, whose reflection of the commands is a quarter of such a
    /// search's time (docs/benchmarks.md, "Process start"). The parser would read these words the
    /// same way: all of them the query, every option at its default. Any other form, and words
    /// the command refuses (``validate()``), go through the parser, for its help and errors.
    ///
    /// Every property is set here: one left unset stops the program when it is read
    /// (`PlainSearchTests` runs this path against the parser's).
    static func plain(_ arguments: [String]) -> SearchCommand? {
        guard arguments.count > 1, arguments[0] == configuration.commandName,
            !arguments.dropFirst().contains(where: { $0.hasPrefix("-") })
        else { return nil }
        var options = IndexOptions()
        options.skills = []
        options.index = nil
        options.noPlugins = false
        var command = SearchCommand()
        command.options = options
        command.query = Array(arguments.dropFirst())
        command.limit = defaultLimit
        command.kind = nil
        command.skill = nil
        command.format = defaultFormat
        command.json = false
        command.noRefresh = false
        command.lexical = false
        guard (try? command.validate()) != nil else { return nil }
        return command
    }
}
