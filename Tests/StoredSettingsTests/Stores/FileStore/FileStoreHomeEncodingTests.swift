import Foundation
import StoredSettings
import Testing

/// `FileStore(application:)` names its folder from `XDG_CONFIG_HOME` or `HOME` as the
/// environment's bytes spell them: a value that is not UTF-8 stops it, naming the variable,
/// instead of a folder tree spelt with U+FFFD.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreHomeEncodingTests {
    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    /// `NAME=<scratch>/<folder>` followed by the byte 0xFF.
    func notUTF8(_ name: String, _ folder: String) -> [UInt8] {
        Array("\(name)=\(scratch.file(folder).path)".utf8) + [0xFF]
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func aHomeThatIsNotUTF8StopsTheStoreNamingIt() throws {
        let lines = try EnvironmentEncodingProcessTests.run(
            ["application-write", "tool", "k", "v"], environment: [notUTF8("HOME", "home")])
        #expect(lines.count == 1 && lines[0].hasPrefix("error dataCorrupted "), "\(lines)")
        #expect(lines.first?.contains("environment variable HOME") == true, "\(lines)")
        #expect(try scratch.names() == [], "a folder was created")
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func anXDGConfigHomeThatIsNotUTF8StopsTheStoreNamingIt() throws {
        let home = scratch.file("home").path
        let lines = try EnvironmentEncodingProcessTests.run(
            ["application-write", "tool", "k", "v"],
            environment: [notUTF8("XDG_CONFIG_HOME", "config"), Array("HOME=\(home)".utf8)])
        #expect(lines.count == 1 && lines[0].hasPrefix("error dataCorrupted "), "\(lines)")
        #expect(lines.first?.contains("environment variable XDG_CONFIG_HOME") == true, "\(lines)")
        #expect(try scratch.names() == [], "a folder was created")
    }

    /// A relative `XDG_CONFIG_HOME` is ignored whatever its bytes, as the specification says.
    @Test(.timeLimit(TestScale.hangGuard))
    func aRelativeXDGConfigHomeThatIsNotUTF8IsIgnored() throws {
        let home = scratch.file("home").path
        let lines = try EnvironmentEncodingProcessTests.run(
            ["application-write", "tool", "k", "v"],
            environment: [Array("XDG_CONFIG_HOME=config".utf8) + [0xFF], Array("HOME=\(home)".utf8)])
        #expect(lines == ["ok \(home)/.config/tool/settings.json"])
    }
}
