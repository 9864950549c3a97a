/// A YAML value from frontmatter. Scalars stay strings exactly as YAML resolved their text, so a
/// description of `yes` stays `"yes"`.
public indirect enum YAMLValue: Hashable, Sendable {
    case string(String)
    case list([YAMLValue])
    case map([FrontmatterField])
    case null

    /// The value when it is a string.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}

/// One `key: value` pair of frontmatter, with the file line of its key.
public struct FrontmatterField: Hashable, Sendable {
    public var key: String
    public var value: YAMLValue
    /// 1-based file line of the key.
    public var line: Int

    public init(key: String, value: YAMLValue, line: Int) {
        self.key = key
        self.value = value
        self.line = line
    }
}

/// The YAML block between `---` lines at the top of a file; every key kept, in order.
public struct Frontmatter: Hashable, Sendable {
    public var fields: [FrontmatterField]
    /// File lines of the opening and closing `---`; `nil` when the file has no frontmatter.
    public var lines: ClosedRange<Int>?

    public init(fields: [FrontmatterField] = [], lines: ClosedRange<Int>? = nil) {
        self.fields = fields
        self.lines = lines
    }

    /// The field named `key`, if present.
    public func field(_ key: String) -> FrontmatterField? {
        fields.first { $0.key == key }
    }

    /// The value of `key` when it is a string.
    public func string(_ key: String) -> String? {
        field(key)?.value.string
    }

    public var name: String? { string("name") }
    public var description: String? { string("description") }
}

extension YAMLValue: Codable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .list(let values):
            var c = encoder.unkeyedContainer()
            for value in values { try c.encode(value) }
        case .map(let fields):
            var c = encoder.container(keyedBy: AnyKey.self)
            for field in fields { try c.encode(field.value, forKey: AnyKey(field.key)) }
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        }
    }

    public init(from decoder: any Decoder) throws {
        if let c = try? decoder.container(keyedBy: AnyKey.self) {
            self = .map(
                try c.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
                    FrontmatterField(key: $0.stringValue, value: try c.decode(YAMLValue.self, forKey: $0), line: 0)
                })
        } else if var c = try? decoder.unkeyedContainer() {
            var values: [YAMLValue] = []
            while !c.isAtEnd { values.append(try c.decode(YAMLValue.self)) }
            self = .list(values)
        } else {
            let c = try decoder.singleValueContainer()
            self = c.decodeNil() ? .null : .string(try c.decode(String.self))
        }
    }
}

/// In JSON, frontmatter is an object of its keys in file order (lines are not kept).
extension Frontmatter: Codable {
    public func encode(to encoder: any Encoder) throws {
        try YAMLValue.map(fields).encode(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        guard case .map(let fields) = try YAMLValue(from: decoder) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "frontmatter is not an object"))
        }
        self.init(fields: fields, lines: nil)
    }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
