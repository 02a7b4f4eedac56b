// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Lectern",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "lectern", targets: ["lectern"]),
    ],
    // The PostgreSQL store (many hosts, one store) needs postgres-nio, SwiftNIO and BoringSSL: a
    // third of a clean build's steps. A single-host build leaves them out; `make build`, `make test`
    // and `make release-postgres` build with them (`swift build --traits PostgreSQL`).
    traits: [
        .trait(name: "PostgreSQL", description: "The PostgreSQL job store (`--store postgres://…`), shared by several hosts."),
        // `lectern serve` (Hummingbird 2 over SwiftNIO): the full build, with the PostgreSQL store.
        .trait(name: "Serve", description: "`lectern serve`: the HTTP API, the dashboard and the podcast feeds.",
               enabledTraits: ["PostgreSQL"]),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // C libraries from Debian, one system-library target each.
        // No pkgConfig: its -lespeak-ng would link the library, which LecternSpeech loads itself (EspeakLibrary).
        .systemLibrary(name: "CEspeakNG", providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(name: "CLAME", providers: [.apt(["libmp3lame-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        // EBU R128 / ITU-R BS.1770 loudness and true peak (LoudnessMeter).
        .systemLibrary(name: "CEbur128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        // Ogg Opus encoding: libopus, the resampler to 48 kHz and the Ogg pages (OpusWriter).
        .systemLibrary(name: "COpusEnc", pkgConfig: "libopusenc", providers: [.apt(["libopusenc-dev"])]),
        // AAC encoding and MP4 muxing (M4BWriter) through FFmpeg's C API; libavformat.pc names the include
        // folder, the module map links libavcodec and libavutil too.
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"])]),
        .systemLibrary(name: "CCmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // CLD2's API is C++: a one-function C face over Debian's libcld2 (see docs/BENCHMARKS.md).
        .target(name: "CCLD2", linkerSettings: [.linkedLibrary("cld2"), .linkedLibrary("stdc++")]),
        // onnxruntime's C API (the Piper engine) through a small C face that declares the few entries
        // it uses, so no onnxruntime header is needed; `make piper` installs the library into .piper/,
        // loaded at run time (dlopen), so Lectern builds and runs without it (see docs/SPEECH.md, "The Piper engine").
        .target(name: "COnnxRuntime", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CLibJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        // libpng and libjpeg-turbo behind a small C face that decodes a cover completely (their
        // errors longjmp; see CoverImage+Decoding.swift).
        .target(name: "CImageDecoding", dependencies: ["CLibPNG", "CLibJPEG"]),
        // SHA-256 from the system's OpenSSL (Debian's libssl-dev), for content hashes.
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // Pipeline stages.
        .target(name: "LecternSchedule"),
        .target(name: "LecternCore", dependencies: ["LecternSchedule", "CImageDecoding", "CLibCrypto",
                                                   .product(name: "Yams", package: "Yams")]),
        // Text normalisation and tokenising: words, sentences, phrases, spoken forms.
        .target(name: "LecternText", dependencies: ["LecternCore"]),
        .target(name: "LecternDocuments", dependencies: [
            "LecternCore", "LecternText", "CCmark", "CLibXML2", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        .target(name: "LecternSpeech", dependencies: ["LecternCore", "LecternText", "CEspeakNG", "CCLD2", "COnnxRuntime"]),
        // The loops over every sample (levelling, on by default): optimised in debug builds too, or the
        // test suite's renders would take eight times the CPU; kept small, so that costs little to compile.
        .target(name: "LecternDSP", dependencies: ["LecternCore"], swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "LecternAudio", dependencies: ["LecternCore", "LecternDSP", "CLAME", "CSndFile", "CEbur128", "COpusEnc", "CFFmpeg"]),
        .target(name: "LecternExport", dependencies: [
            "LecternCore", "LecternText", "LecternDocuments", "LecternAudio",
            .product(name: "Logging", package: "swift-log"), .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        .target(name: "LecternStore", dependencies: ["LecternCore", "LecternSchedule", .product(name: "GRDB", package: "GRDB.swift")]),
        // The PostgreSQL backend of the store, only in a build with the PostgreSQL trait.
        .target(name: "LecternPostgres", dependencies: ["LecternStore", "LecternCore", "LecternSchedule",
                                                       .product(name: "PostgresNIO", package: "postgres-nio")]),
        .target(name: "LecternRunner", dependencies: [
            "LecternCore", "LecternText", "LecternDocuments", "LecternSpeech", "LecternAudio", "LecternExport", "LecternStore",
            "LecternSchedule",
            .product(name: "Logging", package: "swift-log"), .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        // `lectern serve`: the HTTP API, dashboard and podcast feeds over the runner and the store,
        // only in a build with the Serve trait.
        .target(name: "LecternServe", dependencies: [
            "LecternRunner", "LecternCore", "LecternDocuments", "LecternSpeech", "LecternExport", "LecternStore",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "MultipartKit", package: "multipart-kit"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Yams", package: "Yams"),
        ], resources: [
            // The dashboard's page, style and script, compiled into the binary as bytes
            // (`PackageResources.dashboard_html`…): an installed binary needs no file beside it.
            .embedInCode("Resources/dashboard.html"),
            .embedInCode("Resources/dashboard.css"),
            .embedInCode("Resources/dashboard.js"),
        ]),
        .executableTarget(name: "lectern", dependencies: [
            "LecternRunner", "LecternCore", "LecternText", "LecternSpeech", "LecternAudio", "LecternStore", "LecternSchedule",
            .target(name: "LecternPostgres", condition: .when(traits: ["PostgreSQL"])),
            .target(name: "LecternServe", condition: .when(traits: ["Serve"])),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Tests: one target per module, a target of runs in process, and an end-to-end target that
        // drives the real binary.
        .testTarget(name: "LecternCoreTests", dependencies: ["LecternCore"]),
        .testTarget(name: "LecternTextTests", dependencies: ["LecternText", "LecternCore"]),
        .testTarget(name: "LecternDocumentsTests", dependencies: ["LecternDocuments", "LecternCore", "LecternText", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "LecternSpeechTests", dependencies: ["LecternSpeech", "LecternText"]),
        .testTarget(name: "LecternAudioTests", dependencies: ["LecternAudio", "LecternDSP", "LecternCore"]),
        .testTarget(name: "LecternExportTests", dependencies: ["LecternExport", "LecternCore", "LecternText", "LecternAudio", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "LecternRunnerTests", dependencies: ["LecternRunner", "LecternCore", "LecternSpeech", "LecternStore", "LecternExport", "LecternTestSupport"]),
        // What several test targets share: a private PostgreSQL server for the tests that need
        // one, jobs whose outputs collide with their inputs.
        .target(name: "LecternTestSupport", dependencies: ["LecternStore", "LecternPostgres", "LecternCore",
                                                          .product(name: "PostgresNIO", package: "postgres-nio")],
                path: "Tests/Support"),
        // A job run in this process, for tests: its manifest and sources in a temporary folder, a
        // SQLite store beside them, the runner rendering in process (no `lectern` binary, no PostgreSQL).
        .target(name: "LecternTesting", dependencies: ["LecternRunner", "LecternStore", "LecternCore",
                                                      .product(name: "Logging", package: "swift-log")],
                path: "Tests/LecternTesting"),
        // What a run does, tested in process through LecternTesting (the end-to-end target keeps
        // what only the binary shows).
        .testTarget(name: "LecternRunTests", dependencies: ["LecternTesting", "LecternRunner", "LecternStore", "LecternCore"]),
        .testTarget(name: "LecternStoreTests", dependencies: ["LecternStore", "LecternSchedule", "LecternPostgres", "LecternTestSupport"]),
        .testTarget(name: "LecternScheduleTests", dependencies: ["LecternSchedule"]),
        .testTarget(name: "LecternServeTests", dependencies: ["LecternServe", .product(name: "HummingbirdTesting", package: "hummingbird")]),
        .testTarget(name: "LecternEndToEndTests", dependencies: ["LecternCore", "LecternSchedule", "LecternStore", "LecternPostgres", "LecternExport", "LecternTestSupport",
                                                                "LecternTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
