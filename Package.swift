// swift-tools-version:6.0
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
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", exact: "0.9.20"),
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
        .testTarget(
            name: "SkillsTests",
            dependencies: ["SkillParser", "SkillIndex"],
            path: "Tests/SkillsTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: [],
            path: "Tests/CLITests"
        ),
        .testTarget(
            name: "ParserTests",
            dependencies: ["SkillParser"],
            path: "Tests/ParserTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "IndexTests",
            dependencies: ["SkillIndex", "SkillParser"],
            path: "Tests/IndexTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CheckTests",
            dependencies: ["SkillCheck", "SkillIndex", "SkillParser"],
            path: "Tests/CheckTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PackagingTests",
            dependencies: ["SkillPackaging", "SkillParser"],
            path: "Tests/PackagingTests"
        ),
        .testTarget(
            name: "EmbeddingTests",
            dependencies: ["SkillEmbedding"],
            path: "Tests/EmbeddingTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: ["SkillServer", "SkillParser", "SkillIndex", "SkillCheck"],
            path: "Tests/ServerTests",
            exclude: ["Fixtures"]
        ),
    ]
)
