// `subscriptions/listen` (2026-07-28, SEP-2575): a long-lived request whose response stream
// carries change notifications, acknowledged first, each stamped with the subscription's id.

/// The notification types a client opts in to; echoed in the acknowledgment as the subset the
/// server honours (the others left out).
public struct SubscriptionFilter: Codable, Hashable, Sendable {
    public var toolsListChanged: Bool?
    public var promptsListChanged: Bool?
    public var resourcesListChanged: Bool?
    public var resourceSubscriptions: [String]?

    public init(
        toolsListChanged: Bool? = nil, promptsListChanged: Bool? = nil, resourcesListChanged: Bool? = nil,
        resourceSubscriptions: [String]? = nil
    ) {
        self.toolsListChanged = toolsListChanged
        self.promptsListChanged = promptsListChanged
        self.resourcesListChanged = resourcesListChanged
        self.resourceSubscriptions = resourceSubscriptions
    }
}

/// `_meta` of every message of a listen stream: the id of the `subscriptions/listen` request.
public struct SubscriptionMeta: Codable, Hashable, Sendable {
    /// The `_meta` key.
    public static let key = "io.modelcontextprotocol/subscriptionId"
    public var subscriptionId: RequestID

    public init(subscriptionId: RequestID) { self.subscriptionId = subscriptionId }

    enum CodingKeys: String, CodingKey {
        case subscriptionId = "io.modelcontextprotocol/subscriptionId"
    }
}

/// `subscriptions/listen`: opens the stream. Its response ends it (sent when the server closes
/// the stream, at shutdown; a client that cancels gets none).
public struct SubscriptionsListenRequest: MCPRequest, Hashable {
    /// The JSON-RPC method name.
    public static let method = "subscriptions/listen"
    public var notifications: SubscriptionFilter

    public init(notifications: SubscriptionFilter) { self.notifications = notifications }

    /// The graceful end of the stream.
    public struct Response: Codable, Hashable, Sendable {
        public var resultType = "complete"
        public var meta: SubscriptionMeta

        public init(subscriptionId: RequestID) { meta = SubscriptionMeta(subscriptionId: subscriptionId) }

        enum CodingKeys: String, CodingKey {
            case resultType
            case meta = "_meta"
        }
    }
}

/// `notifications/subscriptions/acknowledged`: the first message of a stream.
public struct SubscriptionsAcknowledgedNotification: Codable, Hashable, Sendable {
    /// The JSON-RPC method name.
    public static let method = "notifications/subscriptions/acknowledged"
    public var notifications: SubscriptionFilter
    public var meta: SubscriptionMeta

    public init(notifications: SubscriptionFilter, subscriptionId: RequestID) {
        self.notifications = notifications
        meta = SubscriptionMeta(subscriptionId: subscriptionId)
    }

    enum CodingKeys: String, CodingKey {
        case notifications
        case meta = "_meta"
    }
}

/// The params of a change notification sent on a stream: `notifications/…/list_changed` (no
/// `uri`) or `notifications/resources/updated` (with it).
public struct StreamedChangeParams: Codable, Hashable, Sendable {
    public var uri: String?
    public var meta: SubscriptionMeta

    public init(uri: String? = nil, subscriptionId: RequestID) {
        self.uri = uri
        meta = SubscriptionMeta(subscriptionId: subscriptionId)
    }

    enum CodingKeys: String, CodingKey {
        case uri
        case meta = "_meta"
    }
}
