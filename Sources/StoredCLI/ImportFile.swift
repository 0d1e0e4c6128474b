import Foundation
import StoredSettings
import StoredSettingsCommandLine

/// Reads the FILE of `stored import`: a JSON object or a property-list dictionary, checked
/// completely before anything is written.
enum ImportFile {
    /// The keys and values of `file`, or of standard input for `-`.
    ///
    /// The format is a property list when the name ends in `.plist`, JSON when it ends in
    /// `.json`, and otherwise guessed from the first bytes (`<` or `bplist` for a property list).
    ///
    /// - Throws: ``CommandFailure`` naming the file: no input (66) when it cannot be read; bad
    ///   data (65) when it does not parse, its root is not an object, a key is empty or has
    ///   control characters, or it nests deeper than ``StoredValueJSON/maximumDepth``.
    static func read(_ file: String, input: () throws -> Data) throws -> [String: StoredValue] {
        let name = file == "-" ? "standard input" : file
        let data: Data
        do {
            data = file == "-" ? try input() : try contents(of: file)
        } catch {
            throw CommandFailure(.noInput, "stored: \(name): cannot read: \(Self.reason(error)).")
        }
        do {
            return try parse(data, isPropertyList: isPropertyList(file, data))
        } catch let error as StorageError {
            throw CommandFailure(TargetStore.relabel(error, storePath: nil, name: name))
        }
    }

    /// The bytes of `file`. A regular file is read with `Data(contentsOf:)`; a pipe or a
    /// character device (`/dev/stdin`, the `/dev/fd/N` of a shell's `<(command)`) is read to
    /// its end through a `FileHandle`, which `Data(contentsOf:)` on Linux refuses as
    /// "permission denied".
    private static func contents(of file: String) throws -> Data {
        var info = stat()
        if stat(file, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                throw POSIXError(.EISDIR)
            case S_IFIFO, S_IFCHR:
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
                defer { try? handle.close() }
                return try handle.readToEnd() ?? Data()
            default:
                break
            }
        }
        return try Data(contentsOf: URL(fileURLWithPath: file))
    }

    static func parse(_ data: Data, isPropertyList: Bool) throws -> [String: StoredValue] {
        let root: StoredValue
        if isPropertyList {
            let object: Any
            do {
                object = try PropertyListSerialization.propertyList(from: data, format: nil)
            } catch {
                throw StorageError(.dataCorrupted, message: "not a valid property list")
            }
            guard let value = PropertyListValue.storedValue(from: object) else {
                throw StorageError(
                    .dataCorrupted, message: "the property list holds a value that is not a stored value")
            }
            root = value
        } else {
            root = try StoredValueJSON.parse(data)
        }
        guard case .dictionary(let values) = root else {
            throw StorageError(.dataCorrupted, foundKind: root.kind, message: "the root is not an object")
        }
        if root.depth > StoredValueJSON.maximumDepth {
            throw StorageError(.nestingTooDeep, message: "nesting deeper than \(StoredValueJSON.maximumDepth) levels")
        }
        for key in values.keys { try StorageError.validate(key: key) }
        return values
    }

    private static func isPropertyList(_ file: String, _ data: Data) -> Bool {
        let lowercased = file.lowercased()
        if lowercased.hasSuffix(".plist") { return true }
        if lowercased.hasSuffix(".json") { return false }
        let start = data.prefix(64).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return start.starts(with: Array("bplist".utf8)) || start.first == UInt8(ascii: "<")
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? CocoaError {
            if error.code == .fileReadNoSuchFile { return "no such file" }
            if error.code == .fileReadNoPermission { return "permission denied" }
        }
        return StorageError.readableText(of: error)
    }
}
