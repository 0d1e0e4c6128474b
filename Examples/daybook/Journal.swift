import Foundation

/// The journal file: one entry per line, `<ISO 8601 date><TAB><text>`.
///
/// Kept in `$XDG_DATA_HOME/daybook/journal.txt`, else `~/.local/share/daybook/journal.txt`.
struct Journal {
    struct Entry: Equatable {
        var date: Date
        var text: String
    }

    let url: URL

    init(environment: [String: String]) {
        let base: URL
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = URL(fileURLWithPath: data, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
                ".local/share", isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
                ".local/share", isDirectory: true)
        }
        url = base.appendingPathComponent("daybook", isDirectory: true).appendingPathComponent("journal.txt")
    }

    /// Every entry, oldest first; lines that do not parse are skipped.
    func entries() throws -> [Entry] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            guard let tab = line.firstIndex(of: "\t"),
                let date = try? Date.ISO8601FormatStyle().parse(String(line[..<tab]))
            else { return nil }
            return Entry(date: date, text: String(line[tab...].dropFirst()))
        }
    }

    /// Appends an entry (line breaks in `text` become spaces).
    ///
    /// The journal is opened with `O_APPEND`, so entries from daybooks running at once never
    /// overwrite each other; it is created with mode 0600 in a 0700 folder, like the settings.
    func append(_ entry: Entry) throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let flat = entry.text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
        let line = Data("\(Date.ISO8601FormatStyle().format(entry.date))\t\(flat)\n".utf8)
        var descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        // Never 0, 1 or 2: with standard output closed, the journal would get daybook's output.
        if (0...2).contains(descriptor) {
            let opened = descriptor
            descriptor = fcntl(opened, F_DUPFD_CLOEXEC, 3)
            close(opened)
        }
        guard descriptor >= 0 else { throw JournalError(path: url.path, errno: errno) }
        defer { close(descriptor) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        try handle.write(contentsOf: line)
    }
}

/// A journal file that cannot be opened, with the system's reason.
struct JournalError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32

    var description: String {
        "\(path): cannot open the journal: \(String(cString: strerror(errno)))"
    }
}
