import Foundation
import StoredSettings

/// The structured value of the Codable cases: a 10-field user profile.
struct Profile: Codable, Equatable, Sendable {
    var id: Int
    var name: String
    var email: String
    var age: Int
    var height: Double
    var isAdmin: Bool
    var theme: String
    var fontSize: Double
    var launchCount: Int
    var tags: [String]

    static let sample = Profile(
        id: 42, name: "Ada Lovelace", email: "ada@example.com", age: 36, height: 1.65,
        isAdmin: true, theme: "dark", fontSize: 13.5, launchCount: 1_843, tags: ["math", "engines", "poetry"]
    )
}

/// Stored as a structured tree through the package's Codable bridge.
extension Profile: StoredValueConvertible {}
