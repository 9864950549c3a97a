import Foundation
import SkillIndex
import SkillParser

/// The MCP server: a method registry over a ``KnowledgeBase``. It knows nothing of bytes or
/// threads; ``ServerConnection`` feeds it parsed messages and writes what it returns.
public final class MCPServer: @unchecked Sendable {  // `registry` is filled in `init`, then only read
    /// Settings that rarely change.
    public struct Configuration: Sendable {
        public var serverInfo = Implementation(name: "skill", version: "0.1.0", title: "Skill knowledge")
        /// Items per page of `resources/list` and `prompts/list`.
        public var pageSize = 50
        /// The most bytes of a file one `resources/read` reply holds; the rest is read in parts.
        public var resourceBudget = 256 << 10
        public var instructions =
            "Knowledge from SKILL.md skills. `search` finds entries (patterns, anti-patterns, checklists, examples); `get` an id for the full entry; `get_skill` loads a skill's instructions; `review` checks code against the skills' anti-patterns."
        /// The folder the `check` tool may read code under (the server's working directory).
        public var checkRoot = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)

        /// The defaults.
        public init() {}
    }

    public let knowledge: any KnowledgeBase
    public let configuration: Configuration
    package let log: ServerLog
    /// The revision negotiated by `initialize`, and the catalog last built with the manifests
    /// it was built from.
    private let state = Locked((negotiated: ProtocolVersion?.none, catalog: (source: [SkillManifest], catalog: SkillCatalog)?.none))
    private var registry = MethodRegistry()
    let tools: SkillTools
    /// The open `subscriptions/listen` streams.
    let streams = ListenStreams()

    /// A server answering from `knowledge`; `log` writes to stderr.
    public init(knowledge: any KnowledgeBase, configuration: Configuration = Configuration(), log: ServerLog = ServerLog(level: .off)) {
        self.knowledge = knowledge
        self.configuration = configuration
        self.log = log
        self.tools = SkillTools(knowledge: knowledge, checkRoot: configuration.checkRoot)
        registerMethods()
    }

    /// The revision negotiated by `initialize`, if any.
    public var negotiatedVersion: ProtocolVersion? {
        state.withLock { $0.negotiated }
    }

    /// Whether a JSON-RPC batch is accepted now (only under 2025-03-26).
    public var acceptsBatches: Bool { negotiatedVersion?.acceptsBatches ?? false }

    /// Methods whose 2026-07-28 results carry `ttlMs` and `cacheScope`.
    static let cacheable: Set<String> = [
        DiscoverRequest.method, ListToolsRequest.method, ListResourcesRequest.method,
        ListResourceTemplatesRequest.method, ReadResourceRequest.method, ListPromptsRequest.method,
    ]

    /// Answers one request: its result or its error, as the whole response message.
    /// - Parameter streaming: the transport delivers `notify`'s messages at once, while the request
    ///   is open (needed by `subscriptions/listen`, which holds the calling thread until it ends).
    public func respond(
        id: RequestID, method: String, params: JSONValue?, isCancelled: @escaping @Sendable () -> Bool = { false },
        notify: @escaping @Sendable (JSONValue) -> Void = { _ in }, streaming: Bool = false
    ) -> JSONValue {
        do {
            let result = try handle(
                id: id, method: method, params: params, isCancelled: isCancelled, notify: notify, streaming: streaming)
            return OutgoingMessage.result(id: id, result)
        } catch let error as ResponseError {
            log.debug("\(method) \(id): error \(error.code.rawValue) \(error.message)")
            return OutgoingMessage.error(id: id, error)
        } catch {
            log.error("\(method) \(id): \(error)")
            return OutgoingMessage.error(id: id, ResponseError(.internalError, "Internal error: \(error)"))
        }
    }

    /// Handles a notification (nothing is ever sent back).
    public func notify(method: String, params: JSONValue?) {
        log.debug("notification \(method)")
    }

    private func handle(
        id: RequestID, method: String, params: JSONValue?, isCancelled: @escaping @Sendable () -> Bool,
        notify: @escaping @Sendable (JSONValue) -> Void, streaming: Bool
    ) throws -> JSONValue {
        let meta = params?["_meta"]
        let version: ProtocolVersion
        if let requested = meta?[MetaKey.protocolVersion] {
            guard case .string(let name) = requested, ProtocolVersion.supported.contains(ProtocolVersion(rawValue: name)) else {
                throw ResponseError(
                    .unsupportedProtocolVersion, "Unsupported protocol version",
                    data: [
                        "supported": .array(ProtocolVersion.supported.map { .string($0.rawValue) }),
                        "requested": requested,
                    ])
            }
            version = ProtocolVersion(rawValue: name)
            if version.isModern, meta?[MetaKey.clientCapabilities]?.objectValue == nil {
                throw ResponseError.invalidParams(
                    "Invalid params: _meta must hold \"\(MetaKey.clientCapabilities)\" (an object) in protocol \(name)")
            }
        } else if method == DiscoverRequest.method {
            throw ResponseError.invalidParams(
                "Invalid params: server/discover needs _meta \"\(MetaKey.protocolVersion)\" and \"\(MetaKey.clientCapabilities)\"")
        } else {
            version = negotiatedVersion ?? .v2025_11_25
        }
        // Methods that exist in only one era.
        switch method {
        case InitializeRequest.method where version.isModern, PingRequest.method where !version.hasPing,
            DiscoverRequest.method where !version.isModern, SubscriptionsListenRequest.method where !version.isModern:
            throw ResponseError.methodNotFound(method)
        default: break
        }
        guard let handler = registry.handler(for: method) else { throw ResponseError.methodNotFound(method) }
        var context = RequestContext(
            id: id, version: version, progressToken: meta?[MetaKey.progressToken], isCancelled: isCancelled, notify: notify)
        context.canStream = streaming
        var result = try handler(params, context)
        if version.isModern, case .object(var o) = result {
            o["resultType"] = "complete"
            if Self.cacheable.contains(method) {
                o["ttlMs"] = 0
                o["cacheScope"] = "private"
            }
            var resultMeta = o["_meta"]?.objectValue ?? [:]
            resultMeta[MetaKey.serverInfo] = try JSONValue(encoding: configuration.serverInfo)
            o["_meta"] = .object(resultMeta)
            result = .object(o)
        }
        return result
    }

    /// Capabilities for exactly what is implemented: `listChanged` (sent to a session, and under
    /// 2026-07-28 on `subscriptions/listen` streams) and the Skills extension with
    /// `resources/directory/read` (`initialize` leaves it out unless the client declares it).
    func capabilities(for version: ProtocolVersion) -> ServerCapabilities {
        ServerCapabilities(
            tools: ListChangedCapability(), resources: ListChangedCapability(listChanged: true),
            prompts: ListChangedCapability(listChanged: true), extensions: ServerExtensions(skills: SkillsCapability(directoryRead: true)))
    }

    /// Tells the open `subscriptions/listen` streams that the skills changed (call after a
    /// freshness check that changed the knowledge).
    public func skillsChanged() {
        let catalog = catalog()
        streams.publish(listsChanged: true) { catalog.digest(of: $0) }
    }

    /// Ends the `subscriptions/listen` stream of request `id` (the client cancelled it).
    public func cancelSubscription(_ id: RequestID) { streams.cancel(id) }

    /// Ends every `subscriptions/listen` stream gracefully (each gets its empty result) and
    /// refuses new ones: call at shutdown.
    public func closeSubscriptions() { streams.closeAll() }

    /// The skills the extension serves now: built again only when the knowledge base hands out
    /// other manifests (it keeps one array until the skills change).
    func catalog() -> SkillCatalog {
        let manifests = knowledge.manifests()
        return state.withLock { state in
            // The cache holds the array it was built from, so no other array can have its storage.
            if let cached = state.catalog, Self.sameStorage(cached.source, manifests) { return cached.catalog }
            let catalog = SkillCatalog(manifests)
            for (manifest, why) in catalog.leftOut { log.debug("skills/list leaves out \(manifest.name): \(why)") }
            state.catalog = (manifests, catalog)
            return catalog
        }
    }

    private static func sameStorage(_ a: [SkillManifest], _ b: [SkillManifest]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count } }
    }

    /// The notifications to send after the skills changed: resources and prompts, to a session.
    public func listChangedNotifications() -> [JSONValue] {
        guard let version = negotiatedVersion, !version.isModern else { return [] }
        return [
            OutgoingMessage.notification("notifications/resources/list_changed", nil),
            OutgoingMessage.notification("notifications/prompts/list_changed", nil),
        ]
    }

    private func registerMethods() {
        registry.register(InitializeRequest.self) { [unowned self] request, _ in
            let requested = ProtocolVersion(rawValue: request.protocolVersion)
            let version = ProtocolVersion.handshake.contains(requested) ? requested : .v2025_11_25
            state.withLock { $0.negotiated = version }
            log.info("initialize: client \(request.clientInfo?.name ?? "?") asked \(request.protocolVersion), answering \(version)")
            // A session of an older revision has the Skills extension when its client declares it.
            var capabilities = capabilities(for: version)
            if request.capabilities?["extensions"]?[SkillsCapability.identifier]?.objectValue == nil { capabilities.extensions = nil }
            return .init(
                protocolVersion: version.rawValue, capabilities: capabilities, serverInfo: configuration.serverInfo,
                instructions: configuration.instructions)
        }
        registry.register(DiscoverRequest.self) { [unowned self] _, context in
            .init(
                supportedVersions: ProtocolVersion.supported.map(\.rawValue), capabilities: capabilities(for: context.version),
                serverInfo: configuration.serverInfo, instructions: configuration.instructions)
        }
        registry.register(PingRequest.self) { _, _ in EmptyResult() }
        registry.register(ListSkillsRequest.self) { [unowned self] request, _ in
            let catalog = catalog()
            let (page, next) = try Cursor.page(catalog.items, cursor: request.cursor, size: configuration.pageSize)
            return .init(skills: page.map(catalog.entry), nextCursor: next)
        }
        registry.register(GetSkillRequest.self) { [unowned self] request, _ in
            let catalog = catalog()
            guard let item = catalog.skill(at: request.uri) else {
                let shown = Echo.bounded(request.uri)
                if let left = catalog.leftOut.first(where: {
                    SkillCatalog.path(of: request.uri).map { "/" + $0 }?.hasSuffix("/" + $0.manifest.name + "/SKILL.md") == true
                }) {
                    throw ResponseError(.invalidParams, "No skill is served at \(shown): \(left.why)", data: ["uri": .string(shown)])
                }
                throw ResponseError(.invalidParams, "No skill is served at \(shown)", data: ["uri": .string(shown)])
            }
            return .init(skill: catalog.entry(item))
        }
        registry.register(ReadResourceDirectoryRequest.self) { [unowned self] request, _ in
            let catalog = catalog()
            guard let children = catalog.children(of: request.uri) else {
                let shown = Echo.bounded(request.uri)
                let why = catalog.file(at: request.uri) != nil ? "is not a directory resource" : "is not a directory this server serves"
                throw ResponseError(.invalidParams, "\(shown) \(why)", data: ["uri": .string(shown)])
            }
            let (page, next) = try Cursor.page(children, cursor: request.cursor, size: configuration.pageSize)
            return .init(resources: page, nextCursor: next)
        }
        registry.register(SubscriptionsListenRequest.self) { [unowned self] request, context in
            guard context.canStream else {
                throw ResponseError(
                    .internalError, "subscriptions/listen is served over stdio; this transport cannot stream its notifications yet")
            }
            let catalog = catalog()
            let graceful = try streams.serve(
                id: context.id, requested: request.notifications, digest: { catalog.digest(of: $0) }, notify: context.notify,
                isCancelled: context.isCancelled)
            log.debug("subscriptions/listen \(context.id) ended \(graceful ? "by the server" : "by the client")")
            return .init(subscriptionId: context.id)
        }
        registry.register(ListToolsRequest.self) { [unowned self] request, context in
            if let cursor = request.cursor, !cursor.isEmpty {
                throw ResponseError.invalidParams("Invalid cursor: tools/list has a single page")
            }
            return .init(tools: tools.definitions(for: context.version), nextCursor: nil)
        }
        registry.register(CallToolRequest.self) { [unowned self] request, context in
            try tools.call(request, context: context)
        }
        registry.register(ListResourcesRequest.self) { [unowned self] request, _ in
            // The Skills extension's URIs where the skill is served as one (`skill://PLUGIN/NAME/…`).
            let paths = Dictionary(catalog().items.map { ($0.manifest.name, $0.path) }, uniquingKeysWith: { first, _ in first })
            let all = knowledge.skills().flatMap { skill in skill.documents.map { resource(skill, $0, at: paths[skill.name]) } }
            let (page, next) = try Cursor.page(all, cursor: request.cursor, size: configuration.pageSize)
            return .init(resources: page, nextCursor: next)
        }
        registry.register(ListResourceTemplatesRequest.self) { request, _ in
            if let cursor = request.cursor, !cursor.isEmpty {
                throw ResponseError.invalidParams("Invalid cursor: resources/templates/list has a single page")
            }
            return .init(
                resourceTemplates: [
                    ResourceTemplate(
                        uriTemplate: "skill://{name}/SKILL.md", name: "skill", title: "A skill's SKILL.md",
                        description: "The instructions of the skill NAME.", mimeType: "text/markdown"),
                    ResourceTemplate(
                        uriTemplate: "skill://{name}/{+path}", name: "skill-file", title: "A file of a skill",
                        description: "A document or file of the skill NAME, PATH relative to its folder.", mimeType: nil),
                ], nextCursor: nil)
        }
        registry.register(ReadResourceRequest.self) { [unowned self] request, context in
            try read(uri: request.uri, version: context.version)
        }
        registry.register(ListPromptsRequest.self) { [unowned self] request, _ in
            let all = knowledge.skills().map { skill in
                Prompt(
                    name: "use-\(skill.name)", title: "Use \(skill.name)", description: Text.clip(skill.description, 300),
                    arguments: [PromptArgument(name: "task", description: "What to do with the skill (optional).", required: false)])
            }
            let (page, next) = try Cursor.page(all, cursor: request.cursor, size: configuration.pageSize)
            return .init(prompts: page, nextCursor: next)
        }
        registry.register(GetPromptRequest.self) { [unowned self] request, _ in
            guard request.name.hasPrefix("use-"), let skill = knowledge.skill(named: String(request.name.dropFirst(4))) else {
                let near = EditDistance.nearest(request.name, in: knowledge.skills().map { "use-\($0.name)" }, limit: 3)
                throw ResponseError.invalidParams(
                    "Unknown prompt \"\(request.name)\"" + (near.isEmpty ? "" : "; did you mean \(near.joined(separator: ", "))?"))
            }
            let body = knowledge.file(skill: skill.name, path: skill.skillFile).map(DocumentParser.body(of:)) ?? ""
            var text = "Use the skill \"\(skill.name)\": follow its instructions below."
            if let task = request.arguments?["task"], !task.isEmpty { text += "\n\nTask: \(Echo.bounded(task, limit: 2_000))" }
            // The same budget as a resource: the rest is one resources/read away.
            let part = ResourcePart(of: Data(body.utf8), budget: configuration.resourceBudget)
            text += "\n\n" + String(decoding: part.data, as: UTF8.self)
            if part.next != nil {
                text += "\n\n[skill: the instructions go on; read \(ResourceURI.make(skill: skill.name, path: "SKILL.md")) for the rest]"
            }
            return .init(
                description: Text.clip(skill.description, 300), messages: [PromptMessage(role: "user", content: TextContent(text))])
        }
    }

    /// The resource of a document; `skillPath`: the skill's path in the Skills extension, if served.
    func resource(_ skill: SkillInfo, _ document: String, at skillPath: String? = nil) -> Resource {
        let isSkillFile = document == skill.skillFile
        let file = isSkillFile ? "SKILL.md" : document
        let uri = skillPath.map { SkillCatalog.uri($0 + "/" + file) } ?? ResourceURI.make(skill: skill.name, path: file)
        return Resource(
            uri: uri, name: "\(skill.name)/\(isSkillFile ? "SKILL.md" : document)",
            title: isSkillFile ? skill.name : nil,
            description: isSkillFile ? Text.clip(skill.description, 200) : nil,
            mimeType: "text/markdown", size: nil)
    }

    func read(uri requested: String, version: ProtocolVersion) throws -> ReadResourceRequest.Response {
        let notFound = ResponseError(
            version.unknownResourceCode, "Resource not found: \(Echo.bounded(requested))", data: ["uri": .string(Echo.bounded(requested))])
        guard let (uri, offset) = ResourcePart.split(requested) else { throw notFound }
        let name: String
        let filePath: String
        if let (item, path) = catalog().file(at: uri) {
            // A Skills-extension URI: `skill://<skill-path>/<file>`.
            name = item.manifest.name
            filePath = path
        } else {
            guard let (skillName, path) = ResourceURI.parse(uri), let skill = knowledge.skill(named: skillName) else { throw notFound }
            name = skillName
            filePath = path == "SKILL.md" ? skill.skillFile : path
        }
        // A few bytes past the budget tell whether its end falls inside a UTF-8 character.
        guard let (window, size) = knowledge.file(skill: name, path: filePath, offset: offset, count: configuration.resourceBudget + 4)
        else {
            throw notFound
        }
        guard offset <= size else {
            throw ResponseError.invalidParams("Offset \(offset) is past the end of \(uri) (\(size) bytes)")
        }
        let part = ResourcePart(of: window, budget: configuration.resourceBudget)
        let note = part.next.map { ResourcePart.note(uri: uri, size: size, next: offset + $0) } ?? ""
        let isMarkdown = filePath.lowercased().hasSuffix(".md")
        if let text = String(validatingUTF8Data: part.data) {
            return .init(contents: [
                ResourceContents(uri: requested, mimeType: isMarkdown ? "text/markdown" : "text/plain", text: text + note, blob: nil)
            ])
        }
        let blob = ResourceContents(uri: requested, mimeType: "application/octet-stream", text: nil, blob: part.data.base64EncodedString())
        return .init(
            contents: [blob] + (note.isEmpty ? [] : [ResourceContents(uri: requested, mimeType: "text/plain", text: note, blob: nil)]))
    }
}

extension String {
    /// The string when `data` is valid UTF-8.
    init?(validatingUTF8Data data: Data) {
        guard let s = String(data: data, encoding: .utf8) else { return nil }
        self = s
    }
}

/// `skill://NAME/PATH` URIs.
public enum ResourceURI {
    static let allowed: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: "?#%")
        return set
    }()

    /// The URI of `path` (relative to the skill's folder) in the skill `skill`.
    public static func make(skill: String, path: String) -> String {
        let name = skill.addingPercentEncoding(withAllowedCharacters: allowed.subtracting(CharacterSet(charactersIn: "/"))) ?? skill
        return "skill://\(name)/\(path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path)"
    }

    /// The skill name and path of a `skill://` URI; `nil` for anything else, including paths
    /// with `.` or `..` segments, empty segments or a query.
    public static func parse(_ uri: String) -> (skill: String, path: String)? {
        guard uri.hasPrefix("skill://") else { return nil }
        let rest = uri.dropFirst("skill://".count)
        guard let slash = rest.firstIndex(of: "/"), !rest.contains("?"), !rest.contains("#") || rest.firstIndex(of: "#")! > slash else {
            return nil
        }
        guard let name = String(rest[..<slash]).removingPercentEncoding,
            let path = String(rest[rest.index(after: slash)...]).removingPercentEncoding,
            !name.isEmpty, !path.isEmpty, !path.contains("\\"), !path.contains("\0"), !path.hasPrefix("/")
        else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { return nil }
        return (name, path)
    }
}

/// Opaque page cursors: an offset, base64-encoded.
enum Cursor {
    static func make(_ offset: Int) -> String { Data("o:\(offset)".utf8).base64EncodedString() }

    static func offset(_ cursor: String) -> Int? {
        guard let data = Data(base64Encoded: cursor), let s = String(data: data, encoding: .utf8), s.hasPrefix("o:"),
            let n = Int(s.dropFirst(2)), n >= 0
        else { return nil }
        return n
    }

    /// One page of `items` from `cursor`; throws -32602 for a cursor this server did not give.
    static func page<T>(_ items: [T], cursor: String?, size: Int) throws -> ([T], String?) {
        var start = 0
        if let cursor {
            guard let n = offset(cursor), n <= items.count else { throw ResponseError.invalidParams("Invalid cursor: \(cursor)") }
            start = n
        }
        let end = min(items.count, start + size)
        return (Array(items[start..<end]), end < items.count ? make(end) : nil)
    }
}
