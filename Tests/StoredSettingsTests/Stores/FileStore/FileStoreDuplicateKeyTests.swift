import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// A key given twice in one object of a JSON settings file: the later value is read, with a
/// warning in the layered store's warnings naming the key and both lines.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreDuplicateKeyTests {
    /// A layered store over a file holding `text`, declared by `SecretFileSettings`.
    func layered(_ text: String, in folder: ScratchFolder) throws -> (LayeredStore, FileStore) {
        let url = folder.file("settings.json")
        try Data(text.utf8).write(to: url)
        let file = try FileStore(url: url, options: quietOptions)
        return (LayeredStore([file], writingTo: file), file)
    }

    @Test func aKeyGivenTwiceReadsTheLaterValueWithAWarningNamingBothLines() throws {
        let folder = try ScratchFolder()
        let (_, file) = try layered("{\n  \"motto\": \"a\",\n  \"config\": \"b\",\n  \"motto\": \"c\"\n}\n", in: folder)
        #expect(file.value(forKey: "motto") == .string("c"))
        #expect(
            file.warnings.map(\.description) == [
                "Setting 'motto' in file \(file.url.path): the key is given twice, on lines 2 and 4; the later value is used."
            ])
    }

    @Test func aFieldGivenTwiceInANestedObjectIsNamedByItsPath() throws {
        let folder = try ScratchFolder()
        let (_, file) = try layered(#"{"motto": "a", "layout": {"indent": 2,"# + "\n" + #""indent": 4}}"#, in: folder)
        #expect(
            file.warnings.map(\.description) == [
                "Setting 'layout' in file \(file.url.path): the key 'layout.indent' is given twice, on lines 1 and 2; the later value is used."
            ])
    }

    @Test func aFileWithoutRepeatedKeysHasNoWarnings() throws {
        let folder = try ScratchFolder()
        let (_, file) = try layered(
            #"{"motto": "a", "layout": {"indent": 2}, "list": [{"a": 1}, {"a": 2}]}"#, in: folder)
        #expect(file.warnings.isEmpty)
    }
}
