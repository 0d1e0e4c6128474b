// swift-tools-version: 6.0
//
// StoredSettings: typed, persistent settings for apps and command-line tools.
//
// The package has no dependencies beyond the Swift toolchain. Strictness flags
// (-warnings-as-errors, sanitizers) are passed on the command line in .ci/run, never here.

import PackageDescription

let package = Package(
    name: "StoredSettings",
    platforms: [
        .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
    ],
    products: [
        // The library: @Stored, the value layer and the production backends.
        .library(name: "StoredSettings", targets: ["StoredSettings"]),
        // Renamed keys and versioned migrations of stored settings (`MigratingStore`).
        .library(name: "StoredSettingsMigrations", targets: ["StoredSettingsMigrations"]),
        // What only a command-line tool needs: options and `--set`, `CommandLineSettings`, the
        // `config` subcommands, the JSON Schema output, the standard-stream writer, exit codes.
        .library(name: "StoredSettingsCommandLine", targets: ["StoredSettingsCommandLine"]),
        // Test doubles for apps that swap stores in their tests and previews.
        .library(name: "StoredSettingsTestSupport", targets: ["StoredSettingsTestSupport"]),
        // `@LiveSetting`: a SwiftUI view that follows a setting; its own product, so a mistake in
        // its Apple-only code cannot break the library.
        .library(name: "StoredSettingsSwiftUI", targets: ["StoredSettingsSwiftUI"]),
        // Settings on an etcd cluster; its own product so other apps never link FoundationNetworking.
        .library(name: "StoredSettingsEtcd", targets: ["StoredSettingsEtcd"]),
        // The `stored` command: read and write settings files and UserDefaults suites.
        .executable(name: "stored", targets: ["stored"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "StoredSettings"),
        .target(name: "StoredSettingsMigrations", dependencies: ["StoredSettings"]),
        .target(name: "StoredSettingsCommandLine", dependencies: ["StoredSettings"]),
        .target(name: "StoredSettingsSwiftUI", dependencies: ["StoredSettings"]),
        .target(
            name: "StoredSettingsTestSupport",
            dependencies: ["StoredSettings"],
            path: "TestSupport"
        ),
        // The system's OpenSSL (libssl-dev), which carries TLS to etcd members on Linux; Apple
        // platforms use URLSession's TLS instead.
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"]), .brew(["openssl"])]),
        .target(
            name: "StoredSettingsEtcd",
            dependencies: ["StoredSettings", .target(name: "COpenSSL", condition: .when(platforms: [.linux]))]
        ),
        // The `stored` tool's logic, testable in-process; `stored` is a thin main over it.
        .target(
            name: "StoredCLI", dependencies: ["StoredSettings", "StoredSettingsCommandLine", "StoredSettingsEtcd"]),
        .executableTarget(name: "stored", dependencies: ["StoredCLI", "StoredSettingsCommandLine"]),
        // An example command-line tool that keeps its settings with @Stored. Not a product, so
        // packages that depend on this one never see it; `swift run daybook` still runs it here
        // (SwiftPM gives every executable target of the root package an executable product).
        .executableTarget(
            name: "daybook", dependencies: ["StoredSettings", "StoredSettingsCommandLine", "StoredSettingsEtcd"],
            path: "Examples/daybook"),
        // An example app: a SwiftUI settings screen over @LiveSetting, type-checked on Linux by
        // .ci/apple-typecheck; where SwiftUI does not exist it prints the settings it would show.
        .executableTarget(
            name: "settings-screen", dependencies: ["StoredSettings", "StoredSettingsSwiftUI"],
            path: "Examples/settings-screen"),
        // What only the package's own tests and their child processes use.
        .target(name: "TestHelpers", dependencies: ["StoredSettings"], path: "Tests/Shared"),
        // Child processes the reliability tests launch (crash, multi-process and disk-full runs).
        .executableTarget(
            name: "stored-test-helper",
            dependencies: [
                "StoredSettings", "StoredSettingsCommandLine", "StoredSettingsMigrations", "StoredCLI", "TestHelpers",
            ],
            path: "Tests/Helper"
        ),
        // Child processes the etcd tests launch (concurrent updates, cross-process changes).
        .executableTarget(
            name: "etcd-test-helper",
            dependencies: ["StoredSettings", "StoredSettingsEtcd"],
            path: "Tests/EtcdHelper"
        ),
        .executableTarget(
            name: "stored-benchmarks",
            dependencies: [
                "StoredSettings", "StoredSettingsCommandLine", "StoredSettingsTestSupport", "StoredSettingsEtcd",
            ],
            path: "Benchmarks"
        ),
        .testTarget(
            name: "StoredSettingsTests",
            dependencies: [
                "StoredSettings", "StoredSettingsCommandLine", "StoredSettingsMigrations", "StoredSettingsSwiftUI",
                "StoredSettingsTestSupport", "TestHelpers",
            ]
        ),
        .testTarget(
            name: "StoredSettingsTestSupportTests",
            dependencies: ["StoredSettings", "StoredSettingsTestSupport"]
        ),
        .testTarget(
            name: "StoredCLITests",
            dependencies: [
                "StoredCLI", "StoredSettings", "StoredSettingsCommandLine", "StoredSettingsTestSupport", "TestHelpers",
            ]
        ),
        .testTarget(
            name: "StoredSettingsEtcdTests",
            dependencies: ["StoredSettingsEtcd", "StoredSettings", "StoredSettingsTestSupport", "TestHelpers"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Upcoming language features, on for every Swift target: existentials spelled `any`, members visible
// only from modules a file imports, and imports internal unless a file says `public import`.
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
            .enableUpcomingFeature("InternalImportsByDefault"),
        ]
}
