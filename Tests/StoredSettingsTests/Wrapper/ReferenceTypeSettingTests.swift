import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// A class as a setting's type would lose edits made through its reference
/// (`settings.box.name = "changed"` changes the object, never the store), so it is refused:
/// an empty `Codable` conformance at compile time, any other conformance on first use.
@Suite(.timeLimit(TestScale.hangGuard))
struct ReferenceTypeSettingTests {
    /// A class with a conformance of its own, which the compiler cannot refuse.
    final class Box: StoredValueConvertible, @unchecked Sendable {
        // Safe: each test creates and uses its own boxes on one task.
        var name: String
        init(name: String) { self.name = name }
        init(storedValue: StoredValue) throws {
            guard case .string(let name) = storedValue else { throw StorageError(.typeMismatch) }
            self.name = name
        }
        func storedValue() throws -> StoredValue { .string(name) }
    }

    @Test func aClassSettingIsReportedWhenCreatedAndEveryWriteThrows() throws {
        let store = InMemoryStore(["box": .string("orig")])
        let reported = ReportedErrors()
        let box = reported.capture { Stored("box", default: Box(name: "default"), store: store) }
        let created = try #require(reported.errors.first)
        #expect(created.code == .unsupportedType)
        #expect(created.key == "box")
        #expect(created.expectedType == "Box")
        #expect(created.description.contains("is a class"))

        let error = try #require(throws: StorageError.self) { try box.save(Box(name: "changed")) }
        #expect(error.code == .unsupportedType)
        #expect(throws: StorageError.self) { try box.load() }
        #expect(throws: StorageError.self) { try box.update { $0.name = "changed" } }
        #expect(store.values == ["box": .string("orig")])
    }

    @Test func anEditThroughTheReferenceIsNeverSilentlyLost() throws {
        let store = InMemoryStore(["box": .string("orig")])
        let box = Stored("box", default: Box(name: "default"), store: store)
        let reported = ReportedErrors()
        reported.capture {
            box.wrappedValue.name = "changed"
            _ = box.wrappedValue.name
        }
        #expect(!reported.isEmpty)
        #expect(reported.codes.allSatisfy { $0 == .unsupportedType })
        #expect(store.values == ["box": .string("orig")])
    }

    @Test func anOptionalClassSettingIsRefusedToo() throws {
        let store = InMemoryStore()
        let reported = ReportedErrors()
        let box: Stored<Box?> = reported.capture { Stored("box", store: store) }
        #expect(reported.codes == [.unsupportedType])
        #expect(throws: StorageError.self) { try box.save(Box(name: "x")) }
        #expect(store.values.isEmpty)
    }

    /// Type-checks `source` against the built StoredSettings module with `swiftc`, in a child
    /// process; returns its exit status and diagnostics.
    func typeCheck(_ source: String) throws -> (status: Int32, diagnostics: String) {
        let helper = try #require(ChildProcess.helperPath)
        let modules = URL(fileURLWithPath: helper).deletingLastPathComponent().appendingPathComponent("Modules")
        let folder = try ScratchFolder()
        let file = folder.file("main.swift")
        try Data(source.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-swift-version", "6", "-typecheck", "-I", modules.path, file.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let diagnostics = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, diagnostics)
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func anEmptyConformanceOfACodableClassDoesNotCompile() throws {
        let declaration = "import StoredSettings\n"
        let asStruct = try typeCheck(
            declaration + "struct Box: Codable, StoredValueConvertible { var name = \"orig\" }\n")
        #expect(asStruct.status == 0, "\(asStruct.diagnostics)")
        let asClass = try typeCheck(
            declaration
                + "final class Box: Codable, StoredValueConvertible, @unchecked Sendable { var name = \"orig\" }\n")
        #expect(asClass.status != 0)
        #expect(asClass.diagnostics.contains("a class cannot be a setting's type"))
    }

    @Test func valueTypesAreNotRefused() throws {
        let reported = ReportedErrors()
        reported.capture {
            _ = Stored("a", default: 1, store: InMemoryStore())
            _ = Stored("b", default: URL(fileURLWithPath: "/"), store: InMemoryStore())
            _ = Stored("c", default: [Data()], store: InMemoryStore())
        }
        #expect(reported.isEmpty)
    }
}
