import StoredSettings

// A hand-written conformance, used until the package's Codable bridge is merged; the cached
// read case does not depend on how the tree is decoded.
extension Profile: StoredValueConvertible {
    init(storedValue: StoredValue) throws {
        guard case .dictionary(let fields) = storedValue else {
            throw StorageError.typeMismatch(Profile.self, found: storedValue)
        }
        func field<T: StoredValueConvertible>(_ name: String, _: T.Type = T.self) throws -> T {
            guard let value = fields[name] else {
                throw StorageError.typeMismatch(T.self, found: storedValue, codingPath: [name])
            }
            return try T(storedValue: value)
        }
        self.init(
            id: try field("id"), name: try field("name"), email: try field("email"), age: try field("age"),
            height: try field("height"), isAdmin: try field("isAdmin"), theme: try field("theme"),
            fontSize: try field("fontSize"), launchCount: try field("launchCount"), tags: try field("tags")
        )
    }

    func storedValue() throws -> StoredValue {
        .dictionary([
            "id": id.storedValue(), "name": .string(name), "email": .string(email), "age": age.storedValue(),
            "height": .double(height), "isAdmin": .bool(isAdmin), "theme": .string(theme),
            "fontSize": .double(fontSize), "launchCount": launchCount.storedValue(),
            "tags": .array(tags.map { .string($0) }),
        ])
    }
}
