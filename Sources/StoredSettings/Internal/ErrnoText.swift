#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's text for an `errno` value (`strerror(3)`): "No space left on device" for
/// `ENOSPC`. Used in every message that reports a failed system call.
package func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
