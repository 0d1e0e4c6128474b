import StoredSettings

// The code of the "Changing a stored type" article, so the compiler checks it. Each version of
// `Profile` lives in its own namespace; the bodies are the article's, word for word.

enum SchemaArticleVersion1 {
    struct Profile: Codable, StoredValueConvertible {
        var name: String
    }
}

enum SchemaArticleVersion2 {
    struct Profile: Codable, StoredValueConvertible {
        var name: String
        var theme: String
    }
}

enum SchemaArticleOptionalFix {
    struct Profile: Codable, StoredValueConvertible {
        var name: String
        var theme: String? // nil in values stored before version 2
    }
}

enum SchemaArticleDecodeIfPresentFix {
    struct Profile: Codable, StoredValueConvertible {
        var name: String
        var theme: String

        init(name: String, theme: String = "system") {
            self.name = name
            self.theme = theme
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            theme = try container.decodeIfPresent(String.self, forKey: .theme) ?? "system"
        }
    }
}

extension SchemaArticleOptionalFix.Profile: Equatable {}
extension SchemaArticleDecodeIfPresentFix.Profile: Equatable {}
typealias OptionalFieldProfile = SchemaArticleOptionalFix.Profile
typealias DefaultingProfile = SchemaArticleDecodeIfPresentFix.Profile
