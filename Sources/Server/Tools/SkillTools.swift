import Foundation
import SkillIndex
import SkillParser

/// The seven tools: their definitions (kept terse: `tools/list` is paid in every agent's context)
/// and their implementations over a ``KnowledgeBase``.
struct SkillTools: Sendable {
    let knowledge: any KnowledgeBase
    /// The folder `check` may read code under.
    var checkRoot = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)

    /// Default and extreme `maxChars` per tool.
    static let defaultMaxChars = [
        "search": 3400, "get": 6000, "list_skills": 3000, "get_skill": 20000, "checklist": 4000, "review": 3400, "check": 3400,
    ]
    static let maxCharsRange = 200...200_000
    static let searchLimit = (default: 5, max: 50)

    static let kinds: [JSONValue] = EntryKind.all.map { .string($0.rawValue) }
    static let maxCharsSchema: JSONValue = ["type": "integer", "minimum": 200, "description": "Reply size budget in characters."]
    static let readOnly = ToolAnnotations(readOnlyHint: true, openWorldHint: false)

    static let all: [Tool] = [
        Tool(
            name: "search", title: "Search skills",
            description:
                "Search the knowledge of installed skills (patterns, anti-patterns, checklists, examples, decision trees, tables, sections). Ask in your own words: a natural question works as well as keywords. Returns ranked hits with ids; pass an id to `get` for the full entry.",
            inputSchema: [
                "type": "object",
                "properties": [
                    "query": ["type": "string", "description": "A question or words; \"a phrase\", prefix*."],
                    "kind": ["type": "string", "enum": .array(kinds)],
                    "skill": ["type": "string", "description": "Only this skill."],
                    "limit": ["type": "integer", "minimum": 1, "maximum": 50, "default": 5],
                    "maxChars": maxCharsSchema,
                ], "required": ["query"],
            ],
            outputSchema: [
                "type": "object",
                "properties": [
                    "hits": ["type": "array", "items": ["type": "object"]], "truncated": ["type": "boolean"],
                    "corrections": ["type": "object"], "partial": ["type": "boolean"],
                ], "required": ["hits"],
            ],
            annotations: readOnly),
        Tool(
            name: "get", title: "Get entry",
            description:
                "The full entry for an id from `search`: its markdown, code, checklist items or tree, and for an anti-pattern why it is wrong and its fix.",
            inputSchema: ["type": "object", "properties": ["id": ["type": "string"], "maxChars": maxCharsSchema], "required": ["id"]],
            outputSchema: [
                "type": "object", "properties": ["entry": ["type": "object"], "fix": ["type": "object"], "truncated": ["type": "boolean"]],
                "required": ["entry"],
            ],
            annotations: readOnly),
        Tool(
            name: "list_skills", title: "List skills",
            description: "Installed skills with their descriptions, a page at a time.",
            inputSchema: [
                "type": "object",
                "properties": [
                    "cursor": ["type": "string", "description": "nextCursor of the previous page."], "maxChars": maxCharsSchema,
                ],
            ],
            outputSchema: [
                "type": "object",
                "properties": ["skills": ["type": "array", "items": ["type": "object"]], "nextCursor": ["type": "string"]],
                "required": ["skills"],
            ],
            annotations: readOnly),
        Tool(
            name: "get_skill", title: "Get skill",
            description: "A skill's SKILL.md instructions (without frontmatter) and its documents: call it to use a skill.",
            inputSchema: ["type": "object", "properties": ["name": ["type": "string"], "maxChars": maxCharsSchema], "required": ["name"]],
            outputSchema: [
                "type": "object",
                "properties": [
                    "name": ["type": "string"], "body": ["type": "string"], "documents": ["type": "array", "items": ["type": "string"]],
                    "truncated": ["type": "boolean"],
                ], "required": ["name", "body"],
            ],
            annotations: readOnly),
        Tool(
            name: "checklist", title: "Checklist",
            description: "Checklist items for a review, from one skill and/or on a topic.",
            inputSchema: [
                "type": "object", "properties": ["skill": ["type": "string"], "topic": ["type": "string"], "maxChars": maxCharsSchema],
            ],
            outputSchema: [
                "type": "object",
                "properties": ["checklists": ["type": "array", "items": ["type": "object"]], "truncated": ["type": "boolean"]],
                "required": ["checklists"],
            ],
            annotations: readOnly),
        reviewTool,
        checkTool,
    ]

    /// The tools as a client of `version` understands them: `title` and `outputSchema` from
    /// 2025-06-18, `annotations` from 2025-03-26.
    func definitions(for version: ProtocolVersion) -> [Tool] {
        Self.all.map { tool in
            var t = tool
            if !version.hasStructuredTools {
                t.title = nil
                t.outputSchema = nil
            }
            if !version.hasAnnotations { t.annotations = nil }
            return t
        }
    }

    /// Runs a tool. An unknown tool is a protocol error (-32602); bad arguments give a result
    /// with `isError` and a message that says what to change.
    func call(_ request: CallToolRequest, context: RequestContext) throws -> CallToolRequest.Response {
        guard Self.all.contains(where: { $0.name == request.name }) else {
            let near = EditDistance.nearest(request.name, in: Self.all.map(\.name), limit: 2)
            throw ResponseError.invalidParams(
                "Unknown tool \"\(request.name)\"" + (near.isEmpty ? "" : "; did you mean \(near.joined(separator: ", "))?")
                    + " Tools: \(Self.all.map(\.name).joined(separator: ", ")).")
        }
        let args = Arguments(values: request.arguments ?? [:], tool: request.name)
        context.progress(0, of: 1, "\(request.name) started")
        var output: Output
        do {
            switch request.name {
            case "search": output = try search(args, context)
            case "get": output = try get(args)
            case "list_skills": output = try listSkills(args)
            case "get_skill": output = try getSkill(args)
            case "review": output = try review(args)
            case "check": output = try check(args)
            default: output = try checklist(args, context)
            }
        } catch let failure as ToolFailure {
            return .init(content: [TextContent(failure.message)], structuredContent: nil, isError: true)
        }
        context.progress(1, of: 1, "\(request.name) done")
        return .init(
            content: [TextContent(output.text)], structuredContent: context.version.hasStructuredTools ? output.structured : nil,
            isError: nil)
    }

    struct Output {
        var text: String
        var structured: JSONValue
    }

    /// A tool call that fails on its input: becomes `isError: true`.
    struct ToolFailure: Error {
        var message: String
    }

    /// Typed access to tool arguments, failing with messages that name the argument.
    struct Arguments {
        var values: [String: JSONValue]
        var tool: String

        func string(_ key: String, required: Bool = false) throws -> String? {
            guard let value = values[key], value != .null else {
                if required { throw ToolFailure(message: "\(tool): missing required argument \"\(key)\" (a string).") }
                return nil
            }
            guard case .string(let s) = value else {
                throw ToolFailure(message: "\(tool): \"\(key)\" must be a string, not \(value.typeName).")
            }
            if required, s.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ToolFailure(message: "\(tool): \"\(key)\" must not be empty.")
            }
            return s
        }

        func int(_ key: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
            guard let raw = values[key], raw != .null else { return value }
            guard let n = raw.intValue else { throw ToolFailure(message: "\(tool): \"\(key)\" must be an integer, not \(raw.typeName).") }
            guard range.contains(n) else {
                throw ToolFailure(message: "\(tool): \"\(key)\" must be between \(range.lowerBound) and \(range.upperBound); got \(n).")
            }
            return n
        }

        func maxChars() throws -> Int {
            try int("maxChars", default: SkillTools.defaultMaxChars[tool] ?? 4000, range: SkillTools.maxCharsRange)
        }
    }

    // MARK: search

    func search(_ args: Arguments, _ context: RequestContext) throws -> Output {
        let query = try args.string("query", required: true)!
        let kind = try args.string("kind").map { EntryKind(rawValue: $0) }
        if let kind, !EntryKind.all.contains(kind) {
            throw ToolFailure(
                message: "search: unknown kind \"\(kind.rawValue)\". Kinds: \(EntryKind.all.map(\.rawValue).joined(separator: ", ")).")
        }
        let skill = try args.string("skill")
        if let skill, knowledge.skill(named: skill) == nil { throw unknownSkill(skill, tool: "search") }
        let limit = try args.int("limit", default: Self.searchLimit.default, range: 1...Self.searchLimit.max)
        let budget = try args.maxChars()
        let found: SearchResults
        do {
            found = try knowledge.search(KnowledgeQuery(text: query, kind: kind, skill: skill, limit: limit))
        } catch {
            throw ToolFailure(message: "search: the query failed: \(error). Try plain words.")
        }
        let hits = found.results
        var lines = found.notes
        let notes = lines.joined(separator: "\n").count
        var kept: [JSONValue] = []
        var used = notes
        for hit in hits {
            var block =
                "\(kept.count + 1). [\(hit.kind.rawValue)] \(Text.clip(hit.title, 80)) (\(hit.skill))\n   id: \(hit.id)\n   \(hit.snippet)"
            if let others = hit.alsoAt {
                block += "\n   also at: " + others.map { "\($0.absolutePath):\($0.source.line)" }.joined(separator: ", ")
            }
            // The budget covers both forms of the hit: its text and its structured JSON.
            let json = hit.json
            let cost = block.count + 1 + JSONWriter.data(json).count
            if used + cost > budget, !kept.isEmpty { break }
            lines.append(block)
            kept.append(json)
            used += cost
        }
        let truncated = kept.count < hits.count
        var text: String
        if hits.isEmpty, knowledge.skills().isEmpty {
            text = "Nothing can match: \(knowledge.noSkillsMessage())."
        } else if hits.isEmpty {
            text =
                "No entries match \"\(Echo.bounded(query))\"\(kind.map { " of kind \($0.rawValue)" } ?? "")\(skill.map { " in skill \($0)" } ?? ""). Try fewer or other words."
        } else {
            text = lines.joined(separator: "\n")
            if truncated { text += "\n(\(hits.count - kept.count) more; raise maxChars or narrow the query)" }
        }
        var structured: [String: JSONValue] = ["hits": .array(kept)]
        if truncated { structured["truncated"] = true }
        if !found.corrections.isEmpty { structured["corrections"] = .object(found.corrections.mapValues { .string($0) }) }
        if found.partial { structured["partial"] = true }
        return Output(text: text, structured: .object(structured))
    }

    // MARK: get

    func get(_ args: Arguments) throws -> Output {
        let id = try args.string("id", required: true)!
        let budget = try args.maxChars()
        guard let entry = knowledge.entry(id: id) else {
            let near = knowledge.nearIDs(to: id, limit: 3)
            throw ToolFailure(
                message: "get: no entry has the id \"\(id)\"." + (near.isEmpty ? "" : " Nearest ids: \(near.joined(separator: ", ")).")
                    + " Use `search` to find ids.")
        }
        var fix: Entry?
        if case .antiPattern(let a) = entry.details, let fixID = a.fix { fix = knowledge.entry(id: fixID) }
        // A fix inside the entry's own lines is already in its markdown: named, not repeated.
        let fixInside =
            fix.map {
                $0.source.path == entry.source.path && entry.source.line <= $0.source.line && $0.source.endLine <= entry.source.endLine
            } ?? false
        let fixBudget = fix == nil || fixInside ? 0 : budget / 3
        let (markdown, cut) = clipped(entry.markdown, budget - fixBudget)
        var text =
            "\(entry.title)\nid: \(entry.id) · \(entry.kind.rawValue) · \(entry.source.path):\(entry.source.line)-\(entry.source.endLine)\n\n\(markdown)"
        var structured: [String: JSONValue] = ["entry": try fields(entry)]
        var truncated = cut
        if let fix {
            if fixInside {
                text += "\n\nFix: \(fix.id) (lines \(fix.source.line)-\(fix.source.endLine), above)"
            } else {
                let (fixMarkdown, fixCut) = clipped(fix.markdown, fixBudget)
                truncated = truncated || fixCut
                text += "\n\nFix (\(fix.id)):\n\(fixMarkdown)"
            }
            structured["fix"] = try fields(fix)
        }
        if truncated {
            structured["truncated"] = true
            text += "\n(truncated: raise maxChars for the rest)"
        }
        return Output(text: text, structured: .object(structured))
    }

    /// The entry's fields (DESIGN field names) without what the text content already carries:
    /// no `markdown` or `text`, and code blocks by language and verdict without their code.
    private func fields(_ entry: Entry) throws -> JSONValue {
        guard case .object(var o) = try JSONValue(encoding: entry) else { return .null }
        o["text"] = nil
        o["markdown"] = nil
        o["code"] = .array(entry.code.map { ["language": .string($0.language), "verdict": .string($0.verdict.rawValue)] })
        return .object(o)
    }

    private func clipped(_ text: String, _ budget: Int) -> (String, Bool) {
        text.count > budget ? (String(text.prefix(max(0, budget))) + "…", true) : (text, false)
    }

    // MARK: list_skills

    func listSkills(_ args: Arguments) throws -> Output {
        let budget = try args.maxChars()
        let all = knowledge.skills()
        var start = 0
        if let cursor = try args.string("cursor"), !cursor.isEmpty {
            guard let n = Cursor.offset(cursor), n <= all.count else {
                throw ToolFailure(
                    message: "list_skills: the cursor \"\(cursor)\" is not one this server gave; omit it to start from the first page.")
            }
            start = n
        }
        var lines: [String] = []
        var page: [JSONValue] = []
        var used = 0
        var index = start
        while index < all.count, page.count < 100 {
            let skill = all[index]
            let line = "- \(skill.name): \(Text.clip(skill.description, 200))"
            if used + line.count > budget, !page.isEmpty { break }
            lines.append(line)
            page.append([
                "name": .string(skill.name), "description": .string(Text.clip(skill.description, 200)),
                "uri": .string(ResourceURI.make(skill: skill.name, path: "SKILL.md")), "documents": .int(skill.documents.count),
            ])
            used += line.count + 1
            index += 1
        }
        var structured: [String: JSONValue] = ["skills": .array(page)]
        var text =
            all.isEmpty
            ? "No skills: \(knowledge.noSkillsMessage())."
            : "Skills \(start + 1)-\(index) of \(all.count):\n" + lines.joined(separator: "\n")
        if index < all.count {
            let next = Cursor.make(index)
            structured["nextCursor"] = .string(next)
            text += "\nMore: call list_skills with cursor \"\(next)\"."
        }
        return Output(text: text, structured: .object(structured))
    }

    // MARK: get_skill

    func getSkill(_ args: Arguments) throws -> Output {
        let name = try args.string("name", required: true)!
        let budget = try args.maxChars()
        guard let skill = knowledge.skill(named: name) else { throw unknownSkill(name, tool: "get_skill") }
        guard let data = knowledge.file(skill: skill.name, path: skill.skillFile) else {
            throw ToolFailure(message: "get_skill: the SKILL.md of \"\(name)\" cannot be read now; the skills may be changing, try again.")
        }
        let (body, cut) = clipped(DocumentParser.body(of: data), budget)
        let documents = skill.documents.filter { $0 != skill.skillFile }.map { ResourceURI.make(skill: skill.name, path: $0) }
        var text = "# \(skill.name)\n\(skill.description)\n\n\(body)"
        if cut { text += "\n(truncated: raise maxChars for the rest)" }
        if !documents.isEmpty { text += "\n\nDocuments (resources/read): " + documents.joined(separator: " ") }
        var structured: [String: JSONValue] = [
            "name": .string(skill.name), "description": .string(skill.description), "body": .string(body),
            "documents": .array(documents.map { .string($0) }),
        ]
        if cut { structured["truncated"] = true }
        return Output(text: text, structured: .object(structured))
    }

    // MARK: checklist

    func checklist(_ args: Arguments, _ context: RequestContext) throws -> Output {
        let skill = try args.string("skill")
        let topic = try args.string("topic") ?? ""
        let budget = try args.maxChars()
        if let skill, knowledge.skill(named: skill) == nil { throw unknownSkill(skill, tool: "checklist") }
        let hits = try knowledge.search(KnowledgeQuery(text: topic, kind: .checklist, skill: skill, limit: 20)).results
        var blocks: [String] = []
        var lists: [JSONValue] = []
        var used = 0
        var truncated = false
        for hit in hits {
            if context.isCancelled() { break }
            guard let entry = knowledge.entry(id: hit.id), case .checklist(let list) = entry.details else { continue }
            var block = "## \(entry.title) (\(entry.id))"
            var group: String?
            for item in list.items {
                if item.group != group, let g = item.group { block += "\n### \(g)" }
                group = item.group
                block += "\n- [\(item.checked == true ? "x" : " ")] \(item.text)"
            }
            if used + block.count > budget, !lists.isEmpty {
                truncated = true
                break
            }
            blocks.append(block)
            used += block.count + 2
            lists.append([
                "id": .string(entry.id), "title": .string(entry.title), "skill": .string(entry.skill),
                "items": .array(
                    list.items.map { item in
                        var o: [String: JSONValue] = ["text": .string(item.text)]
                        if let g = item.group { o["group"] = .string(g) }
                        return .object(o)
                    }),
            ])
        }
        let text =
            blocks.isEmpty
            ? "No checklist found\(skill.map { " in skill \($0)" } ?? "")\(topic.isEmpty ? "" : " for \"\(topic)\""). Try `search` with kind checklist."
            : blocks.joined(separator: "\n\n") + (truncated ? "\n(more checklists: raise maxChars or give a topic)" : "")
        var structured: [String: JSONValue] = ["checklists": .array(lists)]
        if truncated { structured["truncated"] = true }
        return Output(text: text, structured: .object(structured))
    }

    private func unknownSkill(_ name: String, tool: String) -> ToolFailure {
        let near = EditDistance.nearest(name, in: knowledge.skills().map(\.name), limit: 3)
        return ToolFailure(
            message: "\(tool): no skill is named \"\(name)\"." + (near.isEmpty ? "" : " Did you mean \(near.joined(separator: ", "))?")
                + " `list_skills` lists them.")
    }
}

extension SearchResult: JSONConvertible {
    /// The hit as its `Codable` form gives it.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(id), "kind": .string(kind.rawValue), "title": .string(title), "skill": .string(skill),
            "breadcrumb": .array(breadcrumb.map { .string($0) }), "snippet": .string(snippet), "score": .number(score),
            "source": ["path": .string(source.path), "line": .int(source.line), "endLine": .int(source.endLine)],
        ]
        if let alsoAt { fields["alsoAt"] = .array(alsoAt.map(\.json)) }
        if let plugin {
            var summary: [String: JSONValue] = ["name": .string(plugin.name)]
            if let version = plugin.version { summary["version"] = .string(version) }
            fields["plugin"] = .object(summary)
        }
        return .object(fields)
    }
}

extension OtherLocation: JSONConvertible {
    /// The location as its `Codable` form gives it.
    public var json: JSONValue {
        [
            "id": .string(id), "skill": .string(skill), "absolutePath": .string(absolutePath),
            "source": ["path": .string(source.path), "line": .int(source.line), "endLine": .int(source.endLine)],
        ]
    }
}
