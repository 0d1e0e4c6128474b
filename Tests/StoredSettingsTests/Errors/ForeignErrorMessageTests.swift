import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// Errors from Foundation, the system and user code reach users as one readable phrase: the
/// `errno` text or the localized description, never an `NSError` dump, never an error's fields.
@Suite(.timeLimit(TestScale.hangGuard))
struct ForeignErrorMessageTests {
    struct Leaky: Error { var secret = "hunter2" }

    struct Described: LocalizedError {
        var errorDescription: String? { "the token service is unreachable." }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var error: any Error
        var text: String
        var testDescription: String { text }
    }

    static let cases: [Case] = [
        Case(error: POSIXError(.EACCES), text: "Permission denied"),
        Case(error: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC)), text: "No space left on device"),
        Case(
            error: CocoaError(
                .fileWriteNoPermission,
                userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EROFS))]),
            text: "Read-only file system"
        ),
        Case(error: Described(), text: "the token service is unreachable"),
        Case(error: StorageError(.io, message: "disk full"), text: "disk full"),
    ]

    @Test(arguments: cases)
    func foreignErrorReadsAsItsText(_ testCase: Case) {
        #expect(StorageError.readableText(of: testCase.error) == testCase.text)
    }

    @Test(arguments: [
        CocoaError(.fileWriteUnknown) as NSError, CocoaError(.propertyListWriteInvalid) as NSError,
        NSError(domain: "Custom", code: 7),
    ])
    func nsErrorIsNeverDumped(_ error: NSError) {
        let text = StorageError.readableText(of: error)
        #expect(!text.contains("Error Domain"), "\(text)")
        #expect(!text.contains("UserInfo"), "\(text)")
        #expect(!text.isEmpty)
        #expect(!text.hasSuffix("."))
    }

    @Test func swiftErrorFieldsAreNeverQuoted() {
        let text = StorageError.readableText(of: Leaky())
        #expect(!text.contains("hunter2"), "\(text)")
        #expect(!text.isEmpty)
    }

    /// A value type whose conversion fails with a Foundation error.
    struct Token: StoredValueConvertible, Equatable {
        var text: String
        init(text: String) { self.text = text }
        init(storedValue: StoredValue) throws { throw CocoaError(.coderReadCorrupt) }
        func storedValue() throws -> StoredValue {
            throw CocoaError(
                .fileWriteNoPermission,
                userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))])
        }
    }

    @Test func saveOfAValueWhoseEncodingThrowsAFoundationErrorReadsAsOneSentence() throws {
        let store = InMemoryStore()
        let token = Stored(StorageKeyName.token, default: Token(text: "secret-token"), store: store)
        let error = try #require(throws: StorageError.self) { try token.save(Token(text: "secret-token")) }
        #expect(error.description == "Setting 'token' in memory: expected Token: Permission denied.")
    }

    @Test func loadOfAValueWhoseDecodingThrowsAFoundationErrorReadsAsOneSentence() throws {
        let store = InMemoryStore(["token": .string("secret-token")])
        let token = Stored(StorageKeyName.token, default: Token(text: ""), store: store)
        let error = try #require(throws: StorageError.self) { try token.load() }
        #expect(!error.description.contains("Error Domain"), "\(error)")
        #expect(!error.description.contains("secret-token"), "\(error)")
        #expect(error.description.hasPrefix("Setting 'token' in memory: "), "\(error)")
    }

    enum StorageKeyName: String, StorageKey { case token }
}
