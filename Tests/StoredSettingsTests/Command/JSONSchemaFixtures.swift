import Foundation
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// A setting of every kind the schema describes.
struct SchemaSettings: SettingsGroup {
    enum Shade: String, CaseIterable, Codable, Sendable, StoredValueConvertible { case light, dark }
    enum Level: Int, CaseIterable, Sendable, StoredValueConvertible {
        case low = 1
        case high = 3
    }

    /// A `Codable` structure with a nested structure, an optional field and an enum field.
    struct Window: Codable, Equatable, Sendable, StoredValueConvertible {
        struct Margins: Codable, Equatable, Sendable { var top: Int, bottom: Int }
        var width: Int
        var title: String?
        var shade: Shade
        var opened: Date
        var margins: Margins
        var tabs: [String]
    }

    /// A `Codable` type whose initializer checks its values: its fields come from the default.
    struct Checked: Codable, Equatable, Sendable, StoredValueConvertible {
        var ratio: Double
        init(ratio: Double) { self.ratio = ratio }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            ratio = try container.decode(Double.self, forKey: .ratio)
            guard ratio > 0 else {
                throw DecodingError.dataCorruptedError(forKey: .ratio, in: container, debugDescription: "not positive")
            }
        }
    }

    @Stored("flag", default: false, help: "A switch.") var flag: Bool
    @Stored("count", default: 3) var count: Int
    @Stored("small", default: 0) var small: Int8
    @Stored("byte", default: 0) var byte: UInt8
    @Stored("huge", default: 0) var huge: UInt64
    @Stored("ratio", default: 0.5) var ratio: Double
    @Stored("single", default: 1.5) var single: Float
    @Stored("name", default: "Ada") var name: String
    @Stored("when") var when: Date?
    @Stored("site", default: URL(fileURLWithPath: "/tmp", isDirectory: true)) var site: URL
    @Stored("id") var id: UUID?
    @Stored("blob", default: Data([1, 2, 3])) var blob: Data
    @Stored("amount", default: Decimal(string: "12.50") ?? 0) var amount: Decimal
    @Stored("shade", default: .light) var shade: Shade
    @Stored("level", default: .low) var level: Level
    @Stored("tags", default: ["a"]) var tags: [String]
    @Stored("numbers", default: []) var numbers: Set<Int>
    @Stored("limits", default: [:]) var limits: [String: Int]
    @Stored("window") var window: Window?
    @Stored("checked", default: Checked(ratio: 1)) var checked: Checked
    @Stored("token", default: "s3cret", help: "Token for the service.", secret: true) var token: String
}

extension SchemaSettings {
    /// Assigns a value unlike the default to every setting, with the extremes of each width.
    func assignEverySetting() {
        flag = true
        count = Int.min
        small = Int8.min
        byte = UInt8.max
        huge = UInt64.max
        ratio = -0.25
        single = 3.5
        name = "Grace \u{1F600}"
        when = Date(timeIntervalSinceReferenceDate: 760_000_000.25)
        site = URL(string: "https://example.com/a?b=c") ?? site
        id = UUID()
        blob = Data()
        amount = Decimal(string: "-0.001") ?? 0
        shade = .dark
        level = .high
        tags = ["x", "y"]
        numbers = [3, 1, 2]
        limits = ["a": 1, "b": Int.max]
        window = Window(
            width: 640, title: nil, shade: .dark, opened: Date(timeIntervalSince1970: 0),
            margins: .init(top: 1, bottom: 2), tabs: ["one"])
        checked = Checked(ratio: 2)
        token = "hunter2"
    }
}

/// Validates JSON files against a schema with the `jsonschema` module of a `python3` (the
/// Debian package `python3-jsonschema`), run as a child process.
enum SchemaValidator {
    /// What the validator said about one file: the errors, one per line, `path: message`.
    struct Verdict {
        var isValid: Bool
        var errors: String
    }

    /// Prints the errors of `instance` against `schema` (with the draft's own validator, draft-07
    /// or draft 2020-12, after checking the schema itself): exit 0 valid, 1 invalid, 2 a schema
    /// that is not a valid schema of that draft.
    static let script = """
        import json, sys
        from jsonschema import Draft7Validator, Draft202012Validator
        Validator = Draft7Validator if sys.argv[3] == "7" else Draft202012Validator
        with open(sys.argv[1]) as f: schema = json.load(f)
        if schema.get("$schema") != Validator.META_SCHEMA["$schema"]:
            print("the schema names another draft: " + str(schema.get("$schema"))); sys.exit(2)
        try:
            Validator.check_schema(schema)
        except Exception as error:
            print("invalid schema: " + str(error)); sys.exit(2)
        with open(sys.argv[2]) as f: instance = json.load(f)
        errors = sorted(Validator(schema).iter_errors(instance), key=lambda e: list(map(str, e.path)))
        for e in errors: print("/".join(map(str, e.path)) + ": " + e.message)
        sys.exit(1 if errors else 0)
        """

    /// The first `python3` that imports `jsonschema`: `/usr/bin/python3` first (where Debian's
    /// package installs it), then each `python3` on `PATH`.
    static func python() async throws -> String {
        var candidates = ["/usr/bin/python3"]
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(folder + "/python3")
        }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            let run = try await ProgramRun.run(candidate, ["-c", "import jsonschema"])
            if run.exitCode == 0 { return candidate }
        }
        throw NoValidator()
    }

    struct NoValidator: Error, CustomStringConvertible {
        var description: String {
            "no python3 with the jsonschema module: install it (apt-get install -y python3-jsonschema) to run these tests"
        }
    }

    /// The verdict on the JSON file at `instance`, against `schema` (JSON text in `draft`).
    static func validate(
        _ instance: URL, against schema: String, draft: JSONSchemaDraft = .draft2020, in folder: ScratchFolder
    ) async throws -> Verdict {
        let schemaFile = folder.file("schema-\(UUID().uuidString).json")
        try Data(schema.utf8).write(to: schemaFile)
        let run = try await ProgramRun.run(
            try await python(), ["-c", script, schemaFile.path, instance.path, draft.rawValue])
        #expect(run.exitCode == 0 || run.exitCode == 1, "validator: \(run.output)\(run.errors)")
        return Verdict(isValid: run.exitCode == 0, errors: run.output + run.errors)
    }

    /// The verdict on `text` as a file's contents.
    static func validate(
        text: String, against schema: String, draft: JSONSchemaDraft = .draft2020, in folder: ScratchFolder
    ) async throws -> Verdict {
        let file = folder.file("instance-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        return try await validate(file, against: schema, draft: draft, in: folder)
    }
}
