import Foundation
import StoredSettings

/// The keys daybook stores its settings under.
enum DaybookKey: String, StorageKey {
    case showDates, pageSize, format, lastEntry, layout, launchCount, tags, token
}

/// How `daybook show` prints entries.
enum EntryFormat: String, CaseIterable, Sendable, StoredValueConvertible {
    case plain, markdown
}

/// How entries are laid out on screen: a `Codable` structure, stored as a JSON object.
struct Layout: Codable, Equatable, Sendable {
    /// The column at which long entries wrap.
    var wrapColumn: Int
    /// Spaces in front of every line of an entry.
    var indent: Int
}

// Codable types opt in with an empty conformance and are stored as a JSON object.
extension Layout: StoredValueConvertible {}

/// Everything daybook remembers between runs.
struct DaybookSettings: SettingsGroup {
    @Stored(DaybookKey.showDates, default: true, help: "Print the date in front of each entry.")
    var showDates: Bool

    @Stored(DaybookKey.pageSize, default: 10, help: "How many entries 'daybook show' prints.")
    var pageSize: Int

    @Stored(DaybookKey.format, default: .plain, help: "How entries are printed.")
    var format: EntryFormat

    @Stored(DaybookKey.lastEntry, help: "When the last entry was written.")
    var lastEntry: Date?

    @Stored(DaybookKey.layout, default: Layout(wrapColumn: 72, indent: 2), help: "Wrap column and indent of entries.")
    var layout: Layout

    @Stored(DaybookKey.launchCount, default: 0, help: "How many times daybook has run.")
    var launchCount: Int

    @Stored(DaybookKey.tags, default: [], help: "Tags added to new entries.")
    var tags: [String]

    @Stored(DaybookKey.token, help: "Token for syncing the journal; best given as DAYBOOK_TOKEN_FILE.", secret: true)
    var token: String?
}
