import Foundation
import StoredSettings

/// The keys daybook stores its settings under.
enum DaybookKey: String, StorageKey {
    case showDates, pageSize, format, lastEntry, layout, launchCount
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

// A hand-written conversion: a dictionary of two integers, also read from JSON object text
// (how the environment and the command line spell it).
extension Layout: StoredValueConvertible {
    init(storedValue: StoredValue) throws {
        var value = storedValue
        if case .string(let text) = storedValue, let data = text.data(using: .utf8),
           let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            var items: [String: StoredValue] = [:]
            for (key, item) in object { if let number = item as? Int { items[key] = .int(Int64(number)) } }
            value = .dictionary(items)
        }
        guard case .dictionary(let items) = value,
              let wrap = items["wrapColumn"], let indent = items["indent"] else {
            throw StorageError.typeMismatch(Layout.self, found: storedValue)
        }
        self.init(wrapColumn: try Int(storedValue: wrap), indent: try Int(storedValue: indent))
    }

    func storedValue() -> StoredValue {
        .dictionary(["wrapColumn": .int(Int64(wrapColumn)), "indent": .int(Int64(indent))])
    }
}

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
}
