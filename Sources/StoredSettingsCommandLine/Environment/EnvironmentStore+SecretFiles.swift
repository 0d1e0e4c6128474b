import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension EnvironmentStore {
    /// The largest secret file read through a `NAME_FILE` variable: 64 KiB (65,536 bytes). A
    /// larger file is `StorageError/Code/tooLarge`, found with `fstat` before a byte is read.
    static let maximumSecretFileSize = 64 * 1024

    /// What reading the file of a `NAME_FILE` variable gave: its text, or the error.
    enum SecretFileOutcome: Sendable {
        /// The text (one trailing newline trimmed), the file's path, the `NAME_FILE` variable
        /// that named it, and whether users other than the owner and the group may read it.
        case read(text: String, path: String, variable: String, othersMayRead: Bool)
        /// The file could not be used; the error names the key, the variable and the path.
        case failed(StorageError)
    }

    /// The words of an origin for a value from a secret file:
    /// `file /run/secrets/token (environment variable APP_TOKEN_FILE)`.
    static func secretFileOrigin(path: String, variable: String) -> String {
        "file \(abbreviatingHome(path)) (environment variable \(variable))"
    }

    /// Reads the secret file at `path`, named by `variable`, for `key`: opened `O_NONBLOCK` and
    /// checked with `fstat` first, so a FIFO, device, socket, folder or a file over
    /// ``maximumSecretFileSize`` is an error at once, never a wait. The bytes must be UTF-8;
    /// one trailing `\n` or `\r\n` is removed. Messages say "secret file" when `isSecret`.
    static func readSecretFile(
        atPath path: String, variable: String, key: String, isSecret: Bool = true
    ) -> SecretFileOutcome {
        let origin = secretFileOrigin(path: path, variable: variable)
        let file = fileWords(isSecret: isSecret)
        func failure(_ code: StorageError.Code, _ message: String) -> SecretFileOutcome {
            .failed(StorageError(code, key: key, location: origin, message: message))
        }
        let fd = FileSystem.openFile(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0)
        guard fd >= 0 else {
            let code = errno
            return failure(code == ENOENT ? .notFound : .io, "cannot open the \(file): \(errnoText(code))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            return failure(.io, "cannot read the attributes of the \(file): \(errnoText(errno))")
        }
        if let kind = FileSystem.kindOfSpecialFile(info) {
            return failure(.io, "the \(file) is not a regular file but \(kind)")
        }
        let limit = maximumSecretFileSize
        guard Int(info.st_size) <= limit else {
            return failure(.tooLarge, "the \(file) has \(info.st_size) bytes, more than the limit of \(limit)")
        }
        // Read one byte past the limit, so a file that grew after `fstat` is still refused.
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var total = 0
        var readError: Int32 = 0
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while total < buffer.count {
                let count = read(fd, base + total, buffer.count - total)
                if count < 0 {
                    if errno == EINTR { continue }
                    readError = errno
                    return
                }
                if count == 0 { return }
                total += count
            }
        }
        if readError != 0 { return failure(.io, "cannot read the \(file): \(errnoText(readError))") }
        guard total <= limit else {
            return failure(.tooLarge, "the \(file) has more than the limit of \(limit) bytes")
        }
        var content = bytes[..<total]
        guard content.withUnsafeBytes(\.isValidUTF8) else {
            return failure(.dataCorrupted, "the \(file) is not valid UTF-8 text")
        }
        if content.last == UInt8(ascii: "\n") {
            content = content.dropLast()
            if content.last == UInt8(ascii: "\r") { content = content.dropLast() }
        }
        return .read(
            text: String(decoding: content, as: UTF8.self), path: path, variable: variable,
            othersMayRead: info.st_mode & S_IROTH != 0)
    }

    /// What the `NAME_FILE` companion of the variable `name` gives for `key`: `nil` when there
    /// is none (unset, empty, or a declared key's own variable); a failure when its value is not
    /// UTF-8 (`StorageError/Code/dataCorrupted`) or `name` is set too
    /// (`StorageError/Code/ambiguousVariable`); else the file's outcome, read now.
    static func secretFileOutcome(
        forVariable name: String, key: String, variables: [String: String], undecodable: Set<String> = [],
        ownVariables: Set<String>, isSecret: Bool = true
    ) -> SecretFileOutcome? {
        let fileVariable = name + "_FILE"
        guard !ownVariables.contains(fileVariable) else { return nil }
        guard let path = variables[fileVariable] else {
            return undecodable.contains(fileVariable) ? .failed(notUTF8Error(key: key, variable: fileVariable)) : nil
        }
        guard !path.isEmpty else { return nil }
        if let text = variables[name], !text.isEmpty { return .failed(conflictError(key: key, variable: name)) }
        return readSecretFile(atPath: path, variable: fileVariable, key: key, isSecret: isSecret)
    }

    /// The error for a setting given both by its variable and by a secret file.
    static func conflictError(key: String, variable: String) -> StorageError {
        StorageError(
            .ambiguousVariable, key: key, location: "environment variable \(variable)",
            message: "both \(variable) and \(variable)_FILE are set; set only one of them"
        )
    }

    /// How messages name the file of a `NAME_FILE` variable: "secret file" for a secret
    /// setting's, "file" for another's.
    static func fileWords(isSecret: Bool) -> String { isSecret ? "secret file" : "file" }

    /// The warning for an empty file named by a `NAME_FILE` variable: the setting counts as
    /// unset (as an empty variable does), which is probably not what was meant.
    static func emptyFileWarning(key: String, path: String, variable: String, isSecret: Bool) -> StorageError {
        StorageError(
            .dataCorrupted, key: key, location: secretFileOrigin(path: path, variable: variable),
            message: "the \(fileWords(isSecret: isSecret)) is empty, so the setting counts as unset"
        )
    }

    /// The `StorageError/Code/insecurePermissions` warning for a secret file every user may
    /// read (mode bit `0o004`); the value is still read.
    static func insecureFileWarning(key: String, path: String, variable: String) -> StorageError {
        StorageError(
            .insecurePermissions, key: key, location: secretFileOrigin(path: path, variable: variable),
            message: "the secret file can be read by every user; restrict it with chmod o-r"
        )
    }
}
