import StoredSettings
import StoredSettingsCommandLine

/// `text` on standard error through the package's writer, `write(2)` retried after `EINTR`
/// and partial writes, never trapping on a closed pipe.
func writeToStandardError(_ text: String) {
    var standardError = StandardStream.error
    standardError.write(text)
}
