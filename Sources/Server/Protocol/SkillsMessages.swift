// The MCP Skills extension (`io.modelcontextprotocol/skills`, SEP-2640; public repository
// modelcontextprotocol/ext-skills, specification/stable/skills.mdx): `skills/list`, `skills/get`
// and `resources/directory/read`, and the entry shape they share.

/// The extension's identifier and its capability settings.
public struct SkillsCapability: Codable, Hashable, Sendable {
    /// The key under `capabilities.extensions`.
    public static let identifier = "io.modelcontextprotocol/skills"
    /// The server implements `resources/directory/read`.
    public var directoryRead: Bool?

    public init(directoryRead: Bool? = nil) { self.directoryRead = directoryRead }
}

/// `capabilities.extensions`: the extensions the server implements, by identifier.
public struct ServerExtensions: Codable, Hashable, Sendable {
    public var skills: SkillsCapability?

    public init(skills: SkillsCapability? = nil) { self.skills = skills }

    enum CodingKeys: String, CodingKey {
        case skills = "io.modelcontextprotocol/skills"
    }
}

/// A file of a skill, with the digest and size of its bytes.
public struct SkillResource: Codable, Hashable, Sendable {
    /// The file's resource URI.
    public var uri: String
    /// `sha256:` and 64 lowercase hex digits.
    public var digest: String
    /// Length in bytes of the content `digest` covers.
    public var size: Int

    public init(uri: String, digest: String, size: Int) {
        self.uri = uri
        self.digest = digest
        self.size = size
    }
}

/// One skill: the URI of its SKILL.md, its frontmatter verbatim, and every file it has.
public struct SkillEntry: Codable, Hashable, Sendable {
    /// `skill://<skill-path>/SKILL.md`, whose last path segment before `SKILL.md` is the name.
    public var uri: String
    /// The SKILL.md frontmatter as a JSON object, every field the author wrote.
    public var frontmatter: JSONValue
    /// The complete manifest, SKILL.md included (this server never sends `"dynamic"`).
    public var resources: [SkillResource]

    public init(uri: String, frontmatter: JSONValue, resources: [SkillResource]) {
        self.uri = uri
        self.frontmatter = frontmatter
        self.resources = resources
    }
}

/// `skills/list`, paginated: entries for the skills the server serves.
public struct ListSkillsRequest: MCPRequest, Hashable {
    /// The JSON-RPC method name.
    public static let method = "skills/list"
    public var cursor: String?
    public init(cursor: String? = nil) { self.cursor = cursor }

    /// The result of the request (a `CacheableResult`: `ttlMs` and `cacheScope` are required).
    public struct Response: Codable, Hashable, Sendable {
        public var skills: [SkillEntry]
        public var nextCursor: String?
        public var resultType = "complete"
        public var ttlMs = 0
        public var cacheScope = "private"

        public init(skills: [SkillEntry], nextCursor: String?) {
            self.skills = skills
            self.nextCursor = nextCursor
        }
    }
}

/// `skills/get`: the entry of one skill, by the URI of its SKILL.md.
public struct GetSkillRequest: MCPRequest, Hashable {
    /// The JSON-RPC method name.
    public static let method = "skills/get"
    public var uri: String
    public init(uri: String) { self.uri = uri }

    /// The result of the request (a `CacheableResult`, without a cursor).
    public struct Response: Codable, Hashable, Sendable {
        public var skill: SkillEntry
        public var resultType = "complete"
        public var ttlMs = 0
        public var cacheScope = "private"

        public init(skill: SkillEntry) { self.skill = skill }
    }
}

/// `resources/directory/read`, paginated: the direct children of a directory resource.
public struct ReadResourceDirectoryRequest: MCPRequest, Hashable {
    /// The JSON-RPC method name.
    public static let method = "resources/directory/read"
    public var uri: String
    public var cursor: String?

    public init(uri: String, cursor: String? = nil) {
        self.uri = uri
        self.cursor = cursor
    }

    /// The result of the request.
    public struct Response: Codable, Hashable, Sendable {
        public var resources: [Resource]
        public var nextCursor: String?
        public var resultType = "complete"

        public init(resources: [Resource], nextCursor: String?) {
            self.resources = resources
            self.nextCursor = nextCursor
        }
    }
}
