import StoredSettings

/// How a declared `LayeredStore` reads one key over its layers: the first whole value, with the
/// field overrides of the layers above it (and its own) applied, from the lowest layer up.
/// It also keeps the declarations and the warnings found when the store was made.
struct LayerMerge: LayerMerging {
    /// The layers that can give field overrides, with their positions, highest first.
    private let overriding: [(index: Int, layer: any FieldOverridingStore)]
    private let layerCount: Int
    /// The declared settings by key: their defaults are where field overrides start when no
    /// layer holds the key.
    let declarations: [String: SettingDeclaration]
    /// The warnings of a store made for a settings group, found when it was made; `nil` for another.
    let warnings: [StorageError]?

    init(layers: [any Storable], declarations: [String: SettingDeclaration], warnings: [StorageError]? = nil) {
        self.overriding = layers.enumerated().compactMap { index, layer in
            (layer as? any FieldOverridingStore).map { (index, $0) }
        }
        self.layerCount = layers.count
        self.declarations = declarations
        self.warnings = warnings
    }

    /// The value reads return for `key`, given each layer's own value by position.
    func value(forKey key: String, layerValue: (Int) -> StoredValue?) -> StoredValue? {
        guard !overriding.isEmpty else {
            for index in 0..<layerCount {
                if let value = layerValue(index) { return value }
            }
            return nil
        }
        var base: StoredValue?
        var baseIndex = layerCount
        for index in 0..<layerCount {
            if let value = layerValue(index) {
                base = value
                baseIndex = index
                break
            }
        }
        let overrides = fieldOverrides(forKey: key, downTo: baseIndex)
        guard !overrides.isEmpty else { return base }
        let start = base ?? declarations[key]?.defaultValue ?? .dictionary([:])
        guard case .dictionary(var fields) = (try? start.parsingJSONText(as: .dictionary)) ?? start else {
            return base
        }
        for override in overrides {
            Self.set(override.value, at: override.path[...], in: &fields)
        }
        return .dictionary(fields)
    }

    /// The source of each overridden field of `key` that reads see, by field path (`margin.top`),
    /// sorted by path; empty when no field is overridden.
    func fieldOrigins(forKey key: String, holds: (Int) -> Bool) -> [(path: String, origin: String)] {
        guard !overriding.isEmpty else { return [] }
        let baseIndex = (0..<layerCount).first(where: holds) ?? layerCount
        var winners: [String: String] = [:]
        for override in fieldOverrides(forKey: key, downTo: baseIndex) {
            winners[override.path.joined(separator: ".")] = override.origin
        }
        return winners.sorted { $0.key < $1.key }.map { (path: $0.key, origin: $0.value) }
    }

    /// The field overrides of the layers at `baseIndex` and above, in the order they apply:
    /// lowest layer first, each layer's in its own order.
    private func fieldOverrides(forKey key: String, downTo baseIndex: Int) -> [FieldOverride] {
        var result: [FieldOverride] = []
        for (index, layer) in overriding.reversed() where index <= baseIndex {
            result += layer.fieldOverrides(forKey: key)
        }
        return result
    }

    /// Sets `value` at `path` inside `fields`, making dictionaries on the way where a field is
    /// missing or holds no dictionary (JSON object text is read as one).
    private static func set(_ value: StoredValue, at path: ArraySlice<String>, in fields: inout [String: StoredValue]) {
        guard let first = path.first else { return }
        guard path.count > 1 else {
            fields[first] = value
            return
        }
        var inner: [String: StoredValue] = [:]
        if let existing = fields[first],
            case .dictionary(let found) = (try? existing.parsingJSONText(as: .dictionary)) ?? existing
        {
            inner = found
        }
        set(value, at: path.dropFirst(), in: &inner)
        fields[first] = .dictionary(inner)
    }
}
