import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// Error messages name the key, type, kind and path, stay on one line, and never contain the
/// stored value, whatever the value and whatever a custom `init(from:)` throws.
@Suite(.timeLimit(TestScale.hangGuard))
struct ErrorMessageSecrecyTests {
    static let secret = "sk-live-4242-SECRET"

    struct Credentials: Codable, StoredValueConvertible, Equatable {
        var user: String
        var token: Int
    }

    /// Throws errors whose texts quote the stored value, as careless code does.
    struct Leaky: Codable, StoredValueConvertible {
        struct Failure: Error, CustomStringConvertible {
            var text: String
            var description: String { "bad value \(text)" }
        }
        var text: String
        init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            if text.hasPrefix("corrupt") {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "bad value \(text)"))
            }
            throw Failure(text: text)
        }
        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(
                text, .init(codingPath: encoder.codingPath, debugDescription: "cannot encode \(text)"))
        }
    }

    typealias Read = @Sendable (StoredValue) throws -> Void

    static let failingReads: [Read] = {
        var reads: [Read] = []
        reads.append { _ = try Int(storedValue: $0) }
        reads.append { _ = try Date(storedValue: $0) }
        reads.append { _ in _ = try URL(storedValue: .int(4242)) }
        reads.append { _ = try UUID(storedValue: $0) }
        reads.append { _ = try Decimal(storedValue: $0) }
        reads.append { _ = try Bool(storedValue: $0) }
        reads.append { _ = try Data(storedValue: $0) }
        reads.append { _ = try Double(storedValue: $0) }
        reads.append { _ = try [Int](storedValue: .array([$0])) }
        reads.append { _ = try Credentials(storedValue: .dictionary(["user": $0, "token": $0])) }
        reads.append { _ = try Leaky(storedValue: $0) }
        reads.append { _ in _ = try Leaky(storedValue: .string("corrupt " + secret)) }
        reads.append { _ in _ = try UInt8(storedValue: .string("4242" + String(repeating: "9", count: 30))) }
        return reads
    }()

    @Test(arguments: failingReads.indices)
    func failedReadNeverQuotesTheStoredValue(_ index: Int) throws {
        let store = InMemoryStore(["apiToken": .string(Self.secret)])
        let value = try #require(store.value(forKey: "apiToken"))
        #expect {
            try Self.failingReads[index](value)
        } throws: { error in
            let text = String(describing: error) + "\((error as? StorageError)?.message ?? "")"
            return error is StorageError && !text.contains("4242") && !text.contains("\n")
        }
    }

    @Test func failedEncodeNeverQuotesTheValue() {
        #expect {
            _ = try StoredValueEncoder().encode(["key": Leaky(from: nil)])
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .encodingFailed && error?.description.contains("4242") == false
                && error?.message?.contains("4242") != true && error?.codingPath == ["key"]
        }
    }

    @Test func loadFailureNamesKeyTypeKindAndPath() throws {
        let store = try TemporaryFileStore()
        try store.setValue(.dictionary(["user": .string("ada"), "token": .string(Self.secret)]), forKey: "credentials")
        let setting = Stored("credentials", default: Credentials(user: "", token: 0), store: store)
        #expect {
            _ = try setting.load()
        } throws: { error in
            let error = error as? StorageError
            return error?.description
                == "Setting 'credentials' at 'token' in \(store.url.path): expected Int, found string."
        }
    }

    @Test(arguments: [
        StorageError(.io, location: "/tmp/a\nb.json", message: "failed"),
        StorageError(
            .typeMismatch, key: "k", expectedType: "Int", foundKind: "string",
            codingPath: ["line\none", "\u{1B}[31mred"]),
        StorageError(.dataCorrupted, location: "x.json", message: "parser said:\nline 2\r\n"),
    ])
    func descriptionIsOneLineWhateverThePathOrCodingPathHolds(_ error: StorageError) {
        #expect(
            !error.description.contains(where: { $0.isNewline || $0 == "\u{1B}" }),
            "\(error.description.debugDescription)")
    }
}

extension ErrorMessageSecrecyTests.Leaky {
    /// A value that fails to encode, holding the secret.
    init(from _: Void?) { text = ErrorMessageSecrecyTests.secret }
}
