import Foundation

/// Errors from Foundation, the system and other code as ``StorageError``s whose message is one
/// readable phrase: never an `NSError` dump, nor an error's fields, which may quote a stored value.
extension StorageError {
    /// `error` as a ``StorageError``: a `StorageError` itself with `key` and `location` filled in
    /// where it has none; anything else as a new error with `code` and the message
    /// ``readableText(of:)``.
    package init(
        _ code: Code, wrapping error: any Error,
        key: String? = nil, location: String? = nil, expectedType: String? = nil
    ) {
        if let error = error as? StorageError {
            self = error.adding(key: key, location: location)
        } else {
            self.init(
                code, key: key, location: location, expectedType: expectedType, message: Self.readableText(of: error))
        }
    }

    /// What went wrong in `error`, as a phrase without a final period: `strerror(3)` text for an
    /// `errno` (also one under a Cocoa error), else its description, never its fields.
    package static func readableText(of error: any Error) -> String {
        if let error = error as? StorageError { return error.detail }
        if let error = error as? POSIXError { return errnoText(error.code.rawValue) }
        if let code = posixCode(of: error as NSError) { return errnoText(code) }
        let text: String
        if let error = error as? any LocalizedError, let description = error.errorDescription {
            text = description
        } else {
            text = (error as NSError).localizedDescription
        }
        var trimmed = Substring(text)
        while let last = trimmed.last, last == "." || last.isWhitespace { trimmed = trimmed.dropLast() }
        return trimmed.isEmpty ? "error \(typeName(type(of: error)))" : String(trimmed)
    }

    /// The `errno` value behind an `NSError`: its code in the POSIX domain, or that of the
    /// error under it (Foundation wraps `open(2)` failures in Cocoa errors).
    private static func posixCode(of error: NSError) -> Int32? {
        if error.domain == NSPOSIXErrorDomain { return Int32(exactly: error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(exactly: underlying.code)
        }
        return nil
    }
}
