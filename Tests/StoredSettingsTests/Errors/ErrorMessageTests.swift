import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// Error messages name the key, the place inside the value, the file, the expected type and
/// the found kind, in one sentence, and never the stored value.
@Suite(.timeLimit(TestScale.hangGuard))
struct ErrorMessageTests {
    struct Address: Codable, Equatable {
        var street: String
        var zip: String
    }
    struct Profile: Codable, Equatable, StoredValueConvertible {
        var name: String
        var address: Address
    }

    struct MessageCase: Sendable, CustomTestStringConvertible {
        let error: StorageError
        let expected: String
        var testDescription: String { expected }
    }

    static let cases: [MessageCase] = [
        MessageCase(
            error: StorageError(
                .typeMismatch, key: "launchCount", location: "/path/settings.json", expectedType: "Int",
                foundKind: "string"
            ),
            expected: "Setting 'launchCount' in /path/settings.json: expected Int, found string."
        ),
        MessageCase(
            error: StorageError(
                .typeMismatch, key: "profile", location: "/p/s.json", expectedType: "String", foundKind: "nothing",
                codingPath: ["address", "zip"], message: "the field is missing"),
            expected:
                "Setting 'profile' at 'address.zip' in /p/s.json: expected String, found nothing: the field is missing."
        ),
        MessageCase(
            error: StorageError(.dataCorrupted, location: "/p/s.json"), expected: "/p/s.json: the data is corrupted."),
        MessageCase(error: StorageError(.io, key: "k"), expected: "Setting 'k': an I/O error occurred."),
        MessageCase(
            error: StorageError(.typeMismatch, expectedType: "Int", foundKind: "string"),
            expected: "Settings: expected Int, found string."),
        MessageCase(error: StorageError(StorageError.Code("custom")), expected: "Settings: error custom."),
    ]

    @Test(arguments: cases)
    func describesErrorInOneSentence(_ testCase: MessageCase) {
        #expect(testCase.error.description == testCase.expected)
    }

    @Test func loadOfTheWrongKindNamesKeyFileTypeAndKind() throws {
        let store = try TemporaryFileStore()
        try store.setValue(.string("many-secret"), forKey: "launchCount")
        let launchCount = Stored("launchCount", default: 0, store: store)
        #expect {
            _ = try launchCount.load()
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .typeMismatch
                && error?.description == "Setting 'launchCount' in \(store.url.path): expected Int, found string."
        }
    }

    @Test func loadOfABrokenCodableNamesTheCodingPath() throws {
        let store = InMemoryStore([
            "profile": .dictionary([
                "name": .string("Ada"), "address": .dictionary(["street": .int(12), "zip": .string("secret-zip")]),
            ])
        ])
        let profile = Stored("profile", default: Profile(name: "", address: Address(street: "", zip: "")), store: store)
        #expect {
            _ = try profile.load()
        } throws: { error in
            (error as? StorageError)?.description
                == "Setting 'profile' at 'address.street' in memory: expected String, found int."
        }
    }

    @Test func missingFieldNamesTheField() {
        let store = InMemoryStore([
            "profile": .dictionary(["name": .string("Ada"), "address": .dictionary(["street": .string("x")])])
        ])
        let profile = Stored("profile", default: Profile(name: "", address: Address(street: "", zip: "")), store: store)
        #expect {
            _ = try profile.load()
        } throws: { error in
            (error as? StorageError)?.description
                == "Setting 'profile' at 'address.zip' in memory: expected String, found nothing: the field is missing."
        }
    }

    @Test func messageNeverContainsTheStoredValue() {
        let secret = "hunter2-\(UUID().uuidString)"
        let values: [StoredValue] = [
            .string(secret), .dictionary(["name": .string(secret)]), .array([.string(secret)]),
        ]
        for value in values {
            let store = InMemoryStore(["token": value])
            for load in [
                { _ = try Stored("token", default: 0, store: store).load() },
                {
                    _ = try Stored(
                        "token", default: Profile(name: "", address: Address(street: "", zip: "")), store: store
                    ).load()
                },
                { _ = try Stored("token", default: UUID(), store: store).load() },
                { _ = try Stored("token", default: [Date](), store: store).load() },
            ] as [() throws -> Void] {
                #expect {
                    try load()
                } throws: { error in
                    !String(describing: error).contains(secret)
                }
            }
        }
    }

    @Test func getterReportsTheSameMessage() {
        let store = InMemoryStore(["launchCount": .string("x")])
        let reports = Lock<[String]>([])
        let value = StorageErrorReporter.withHandler({ error in reports.withLock { $0.append(error.description) } }) {
            Stored("launchCount", default: 7, store: store).wrappedValue
        }
        #expect(value == 7)
        #expect(
            reports.value == ["Setting 'launchCount' in memory: expected Int (a whole number), found string \"x\"."])
    }
}
