package import Foundation
package import StoredSettings
import StoredSettingsCommandLine

/// Reads the FILE of `stored import`: a JSON object or a property-list dictionary, checked
/// completely before anything is written.
package enum ImportFile {
    /// The keys and values of `file`, or of standard input for `-`.
    ///
    /// The file is read as a ``FileStore`` reads its settings file: a FIFO, a device, a socket
    /// or a folder is refused at once, never waited on or read without end, and so is a file
    /// larger than the default size limit (``FileStore/Options/maximumFileSize``, 16 MiB), as is
    /// standard input beyond it. Its bytes are parsed by the store's own parser, with its checks
    /// of kinds, keys and nesting. The format is a property list when the name ends in `.plist`,
    /// JSON when it ends in `.json`, and otherwise guessed from the first bytes (`<` or `bplist`
    /// for a property list).
    ///
    /// - Throws: ``CommandFailure`` naming the file: no input (66) when there is no such file
    ///   or standard input cannot be read; I/O error (74) when it is not a regular file or
    ///   cannot be read; bad data (65) when it is too large, does not parse, its root is not an
    ///   object, a key is empty or has control characters, it nests deeper than
    ///   ``StoredValueJSON/maximumDepth`` (the root counted), or it holds a value stored values
    ///   lack.
    package static func read(_ file: String, input: () throws -> Data) throws -> [String: StoredValue] {
        let name = file == "-" ? "standard input" : file
        let limit = FileStore.Options.defaultMaximumFileSize
        do {
            let data: Data
            if file == "-" {
                do {
                    data = try input()
                } catch let error as StorageError {
                    throw error
                } catch {
                    throw CommandFailure(
                        .noInput, "stored: \(name): cannot read: \(StorageError.readableText(of: error)).")
                }
                guard data.count <= limit else {
                    throw StorageError(.tooLarge, message: "more than the limit of \(limit) bytes")
                }
            } else {
                guard let contents = try FileSystem.readFile(atPath: file, maximumSize: limit)?.data else {
                    throw CommandFailure(.noInput, "stored: \(name): cannot read: no such file.")
                }
                data = contents
            }
            return try parse(data, isPropertyList: isPropertyList(file, data))
        } catch let error as StorageError {
            throw CommandFailure(TargetStore.relabel(error, storePath: nil, name: name))
        }
    }

    /// The keys and values in `data`, parsed as a settings file of the format is parsed
    /// (``FileStore``'s parser), with every key checked as a write checks it.
    static func parse(_ data: Data, isPropertyList: Bool) throws -> [String: StoredValue] {
        let values = try FileStore.parseContents(data, format: isPropertyList ? .propertyList : .json)
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
}
