import Foundation
import StoredSettings

/// Settings holding structures whose dictionaries have keys that are not strings in Swift:
/// `Codable` writes an `Int` or `CodingKeyRepresentable` key as an object's key, any other key
/// type as a list alternating keys and values.
struct KeyedSchemaSettings: SettingsGroup {
    enum Weekday: String, CaseIterable, Codable, CodingKeyRepresentable, Sendable { case mon, tue }

    /// A structure with a dictionary of each kind of key.
    struct Plan: Codable, Equatable, Sendable, StoredValueConvertible {
        var byNumber: [Int: String]
        var byDay: [Weekday: Int]
        var byID: [UUID: Bool]
        var byScore: [Double: String]
        var nested: [String: [Int: Int]]

        static let empty = Plan(byNumber: [:], byDay: [:], byID: [:], byScore: [:], nested: [:])
    }

    @Stored("plan") var plan: Plan?
    @Stored("emptyPlan", default: .empty) var emptyPlan: Plan
    @Stored("names", default: []) var names: [String]
    @Stored("limits", default: [:]) var limits: [String: Int]
}

extension KeyedSchemaSettings {
    /// Assigns a plan with an entry under every kind of key, negative and zero keys among them.
    func assignEverySetting() {
        plan = Plan(
            byNumber: [-3: "minus three", 0: "zero", 42: "answer"], byDay: [.mon: 1, .tue: 2],
            byID: [UUID(): true, UUID(): false], byScore: [0.5: "half", -2: "minus two"],
            nested: ["a": [1: 2, -1: -2]])
        emptyPlan = Plan(byNumber: [7: "seven"], byDay: [.tue: 0], byID: [:], byScore: [:], nested: ["b": [:]])
        names = ["x"]
        limits = ["a": 1]
    }
}
