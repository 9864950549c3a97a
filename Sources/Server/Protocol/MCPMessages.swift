// The MCP messages this server answers: one struct per method, holding its params, with the
// `Response` it returns. Unknown members (`_meta`, newer fields) are ignored when decoding.

/// A request the server answers: its params, its method name and its response type.
public protocol MCPRequest: Codable, Sendable {
    associatedtype Response: Codable, Sendable
    static var method: String { get }
}

/// A name and version: `clientInfo`, `serverInfo`.
public struct Implementation: Codable, Hashable, Sendable {
    public var name: String
    public var version: String
    public var title: String?

    public init(name: String, version: String, title: String? = nil) {
        self.name = name
        self.version = version
        self.title = title
    }
}

/// `{ listChanged? }`, the capability shape of tools and prompts.
public struct ListChangedCapability: Codable, Hashable, Sendable {
    public var listChanged: Bool?
    public init(listChanged: Bool? = nil) { self.listChanged = listChanged }
}

/// What the server implements, and nothing more.
public struct ServerCapabilities: Codable, Hashable, Sendable {
    public var tools: ListChangedCapability?
    public var resources: ListChangedCapability?
    public var prompts: ListChangedCapability?
    /// The protocol extensions implemented (the Skills extension).
    public var extensions: ServerExtensions?

    public init(
        tools: ListChangedCapability? = nil, resources: ListChangedCapability? = nil, prompts: ListChangedCapability? = nil,
        extensions: ServerExtensions? = nil
    ) {
        self.tools = tools
        self.resources = resources
        self.prompts = prompts
        self.extensions = extensions
    }
}

/// A result with nothing in it (`ping`).
public struct EmptyResult: Codable, Hashable, Sendable {
    public init() {}
}

// MARK: Lifecycle

/// `initialize` (2024-11-05 to 2025-11-25): version negotiation and capabilities.
public struct InitializeRequest: MCPRequest, Hashable {
    /// The JSON-RPC method name.
    public static let method = "initialize"
    public var protocolVersion: String
    public var capabilities: JSONValue?
    public var clientInfo: Implementation?

    public init(protocolVersion: String, capabilities: JSONValue? = nil, clientInfo: Implementation? = nil) {
        self.protocolVersion = protocolVersion
        self.capabilities = capabilities
        self.clientInfo = clientInfo
    }

    /// The result of the request.
    public struct Response: Codable, Hashable, Sendable {
        public var protocolVersion: String
        public var capabilities: ServerCapabilities
        public var serverInfo: Implementation
        public var instructions: String?
    }
}

/// `server/discover` (2026-07-28): versions, capabilities and identity, without a session.
public struct DiscoverRequest: MCPRequest, Hashable {
    /// The JSON-RPC method name.
    public static let method = "server/discover"
    public init() {}

    /// The result of the request.
    public struct Response: Codable, Hashable, Sendable {
        public var supportedVersions: [String]
        public var capabilities: ServerCapabilities
        public var serverInfo: Implementation
        public var instructions: String?
    }
}

/// `ping` (up to 2025-11-25).
public struct PingRequest: MCPRequest, Hashable {
    /// The JSON-RPC method name.
    public static let method = "ping"
    public init() {}
    public typealias Response = EmptyResult
}

/// `notifications/cancelled`: stop work on a request and do not answer it.
public struct CancelledNotification: Codable, Hashable, Sendable {
    /// The JSON-RPC method name.
    public static let method = "notifications/cancelled"
    public var requestId: RequestID?
    public var reason: String?
}

/// `notifications/progress`, sent before the reply to a request that carried a `progressToken`.
public struct ProgressNotification: Codable, Hashable, Sendable {
    /// The JSON-RPC method name.
    public static let method = "notifications/progress"
    public var progressToken: JSONValue
    public var progress: Double
    public var total: Double?
    public var message: String?
}

// MARK: Tools

/// `tools/list`.
public struct ListToolsRequest: MCPRequest, Hashable {
    /// The JSON-RPC method name.
    public static let method = "tools/list"
    public var cursor: String?
    public init(cursor: String? = nil) { self.cursor = cursor }

    /// The result of the request.
    public struct Response: Codable, Hashable, Sendable {
        public var tools: [Tool]
        public var nextCursor: String?
    }
}

/// Hints about a tool's behaviour.
public struct ToolAnnotations: Codable, Hashable, Sendable {
    public var readOnlyHint: Bool?
    public var openWorldHint: Bool?
}

/// A tool as listed by `tools/list`.
public struct Tool: Codable, Hashable, Sendable {
    public var name: String
    public var title: String?
    public var description: String
    public var inputSchema: JSONValue
    public var outputSchema: JSONValue?
    public var annotations: ToolAnnotations?
}

/// A block of content; this server only sends text.
public struct TextContent: Codable, Hashable, Sendable, JSONConvertible {
    public var type: String = "text"
    public var text: String

    public init(_ text: String) { self.text = text }

    public var json: JSONValue { ["type": .string(type), "text": .string(text)] }
}

/// `tools/call`.
public struct CallToolRequest: MCPRequest, Hashable, JSONReadable {
    /// The JSON-RPC method name.
    public static let method = "tools/call"
    public var name: String
    public var arguments: [String: JSONValue]?

    public init(name: String, arguments: [String: JSONValue]? = nil) {
        self.name = name
        self.arguments = arguments
    }

    public init?(json: JSONValue) {
        guard case .string(let name)? = json["name"] else { return nil }
        switch json["arguments"] {
        case nil, .null?: self.init(name: name)
        case .object(let arguments)?: self.init(name: name, arguments: arguments)
        default: return nil
        }
    }

    /// The result of the request.
    public struct Response: Codable, Hashable, Sendable, JSONConvertible {
        public var content: [TextContent]
        public var structuredContent: JSONValue?
        public var isError: Bool?

        public var json: JSONValue {
            var o: [String: JSONValue] = ["content": .array(content.map(\.json))]
            if let structuredContent { o["structuredContent"] = structuredContent }
            if let isError { o["isError"] = .bool(isError) }
            return .object(o)
        }
    }
}

// MARK: Resources

/// `resources/list`, paginated.
public struct ListResourcesRequest: MCPRequest, Hashable {
    /// The JSON-RPC method name.
    public static let method = "resources/list"
    public var cursor: String?
    public init(cursor: String? = nil) { self.cursor = cursor }

    /// The result of the request.
    public struct Response: Codable, Hashable, Sendable {
        public var resources: [Resource]
        public var nextCursor: String?
    }
}

/// A readable document of a skill.
public struct Resource: Codable, Hashable, Sendable {
    public var uri: String
    public var name: String
    public var title: String?
    public var description: String?
    public var mimeType: String?
    public var size: Int?
}

/// `resources/templates/list`.
public struct ListResourceTemplatesRequest: MCPRequest, Hashable {
    /// The JSON-RPC method name.
    public static let method = "resources/templates/list"
    public var cursor: String?
    public init(cursor: String? = nil) { self.cursor = cursor }

    /// The result of the request.
    public struct Response: Codable, Hashable, Sendable {
        public var resourceTemplates: [ResourceTemplate]
        public var nextCursor: String?
    }
}

/// An RFC 6570 URI template for resources.
public struct ResourceTemplate: Codable, Hashable, Sendable {
    public var uriTemplate: String
    public var name: String
    public var title: String?
    public var description: String?
    public var mimeType: String?
}

/// `resources/read`.
public struct ReadResourceRequest: MCPRequest, Hashable {
    /// The JSON-RPC method name.
    public static let method = "resources/read"
    public var uri: String
    public init(uri: String) { self.uri = uri }

    /// The result of the request.
    public struct Response: Codable, Hashable, Sendable {
        public var contents: [ResourceContents]
    }
}

/// The contents of a resource: `text` for UTF-8 files, else `blob` (base64).
public struct ResourceContents: Codable, Hashable, Sendable {
    public var uri: String
    public var mimeType: String?
    public var text: String?
    public var blob: String?
}

// MARK: Prompts

/// `prompts/list`, paginated.
public struct ListPromptsRequest: MCPRequest, Hashable {
    /// The JSON-RPC method name.
    public static let method = "prompts/list"
    public var cursor: String?
    public init(cursor: String? = nil) { self.cursor = cursor }

    /// The result of the request.
    public struct Response: Codable, Hashable, Sendable {
        public var prompts: [Prompt]
        public var nextCursor: String?
    }
}

/// A prompt: `use-NAME` for each skill.
public struct Prompt: Codable, Hashable, Sendable {
    public var name: String
    public var title: String?
    public var description: String?
    public var arguments: [PromptArgument]?
}

/// An argument a prompt takes.
public struct PromptArgument: Codable, Hashable, Sendable {
    public var name: String
    public var description: String?
    public var required: Bool?
}

/// `prompts/get`.
public struct GetPromptRequest: MCPRequest, Hashable {
    /// The JSON-RPC method name.
    public static let method = "prompts/get"
    public var name: String
    public var arguments: [String: String]?

    public init(name: String, arguments: [String: String]? = nil) {
        self.name = name
        self.arguments = arguments
    }

    /// The result of the request.
    public struct Response: Codable, Hashable, Sendable {
        public var description: String?
        public var messages: [PromptMessage]
    }
}

/// One message of a prompt.
public struct PromptMessage: Codable, Hashable, Sendable {
    public var role: String
    public var content: TextContent
}
