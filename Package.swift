// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "skill",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "skill", targets: ["skill"]),
        .library(name: "SkillParser", targets: ["SkillParser"]),
        .library(name: "SkillIndex", targets: ["SkillIndex"]),
        .library(name: "SkillCheck", targets: ["SkillCheck"]),
        .library(name: "SkillPackaging", targets: ["SkillPackaging"]),
        .library(name: "SkillServer", targets: ["SkillServer"]),
        .library(name: "SkillEmbedding", targets: ["SkillEmbedding"]),
        // The HTTP transport, apart so that `skill` alone never compiles SwiftNIO (docs/server.md).
        .executable(name: "skill-http", targets: ["skill-http"]),
        .library(name: "SkillServerHTTP", targets: ["SkillServerHTTP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", exact: "0.9.20"),
        // Only the HTTP transport uses it; its traits off (no swift-configuration).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", exact: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", exact: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCmark",
            path: "Sources/CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CLibz",
            path: "Sources/CLibz",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .systemLibrary(
            name: "COpenBLAS",
            path: "Sources/COpenBLAS",
            pkgConfig: "openblas",
            providers: [.apt(["libopenblas-dev"]), .brew(["openblas"])]
        ),
        .target(
            name: "SkillEmbedding",
            dependencies: ["COpenBLAS"],
            path: "Sources/Embedding"
        ),
        .executableTarget(
            name: "embedding-throughput",
            dependencies: ["SkillEmbedding"],
            path: "Benchmarks/EmbeddingThroughput"
        ),
        .target(
            name: "SkillParser",
            dependencies: ["CCmark", .product(name: "Yams", package: "Yams")],
            path: "Sources/Parser"
        ),
        .target(
            name: "SkillCheck",
            dependencies: ["SkillParser"],
            path: "Sources/Check"
        ),
        .target(
            name: "SkillIndex",
            dependencies: ["SkillParser", "SkillCheck", "SkillEmbedding", "CSQLite", "CLibz"],
            path: "Sources/Index"
        ),
        .target(
            name: "SkillPackaging",
            dependencies: ["SkillParser", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            path: "Sources/Packaging"
        ),
        .target(
            name: "SkillServer",
            dependencies: ["SkillParser", "SkillIndex", "SkillCheck"],
            path: "Sources/Server"
        ),
        .target(
            name: "SkillServerHTTP",
            dependencies: [
                "SkillParser",
                "SkillServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/ServerHTTP"
        ),
        .executableTarget(
            name: "skill-http",
            dependencies: [
                "SkillServerHTTP",
                "SkillServer",
                "SkillIndex",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/HTTPCLI"
        ),
        .executableTarget(
            name: "skill",
            dependencies: [
                "SkillParser",
                "SkillIndex",
                "SkillPackaging",
                "SkillServer",
                "SkillCheck",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/CLI"
        ),
        .executableTarget(
            name: "json-parse-throughput",
            dependencies: ["SkillServer"],
            path: "Benchmarks/JSONParseThroughput"
        ),
        // Helpers shared by the test targets: the package's paths, the corpus, temporary folders.
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "SkillsTests",
            dependencies: ["SkillParser", "SkillIndex", "TestSupport"],
            path: "Tests/SkillsTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["TestSupport"],
            path: "Tests/CLITests"
        ),
        .testTarget(
            name: "ParserTests",
            dependencies: ["SkillParser", "TestSupport"],
            path: "Tests/ParserTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "IndexTests",
            dependencies: ["SkillIndex", "SkillParser", "TestSupport"],
            path: "Tests/IndexTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CheckTests",
            dependencies: ["SkillCheck", "SkillIndex", "SkillParser", "TestSupport"],
            path: "Tests/CheckTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PackagingTests",
            dependencies: ["SkillPackaging", "SkillParser", "TestSupport"],
            path: "Tests/PackagingTests"
        ),
        .testTarget(
            name: "EmbeddingTests",
            dependencies: ["SkillEmbedding", "TestSupport"],
            path: "Tests/EmbeddingTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: ["SkillServer", "SkillParser", "SkillIndex", "SkillCheck", "TestSupport"],
            path: "Tests/ServerTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "ServerHTTPTests",
            dependencies: ["SkillServerHTTP", "SkillServer", "SkillIndex", "SkillParser"],
            path: "Tests/ServerHTTPTests"
        ),
    ]
)
