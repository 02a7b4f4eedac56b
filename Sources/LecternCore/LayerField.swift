/// How a key whose value is one scalar — text, a number in its range, true or false, one of an
/// enumeration's values — is read into a ``ManifestLayer`` and merged over the defaults' layer.
///
/// It is declared with the key in ``ManifestSchema`` (``ManifestKey/reading(_:)``), so such a key
/// needs no line of its own in the parser or the merge: adding one is its declaration plus the
/// code that uses its value. Keys of a richer shape (`sources`, `voice`, `cast`, `pauses` …)
/// are parsed by hand, reading their ranges and choices from their declarations.
struct LayerField: Sendable {
    /// Reads the key's value into the layer; the key gives its range or choices.
    let read: @Sendable (_ value: YAMLValue, _ key: ManifestKey, _ layer: inout ManifestLayer) throws -> Void
    /// Sets the value of `merged` (the defaults' layer, so far) from `layer`, the one over it.
    let merge: @Sendable (_ layer: ManifestLayer, _ merged: inout ManifestLayer) -> Void
    /// Whether the layer gives the key a value.
    let given: @Sendable (_ layer: ManifestLayer, _ key: ManifestKey) -> Bool

    /// The value at `field`, read by `parse`; the manifest's value replaces the defaults'.
    static func value<V>(_ field: WritableKeyPath<ManifestLayer, V?> & Sendable,
                         _ parse: @escaping @Sendable (YAMLValue, ManifestKey) throws -> V) -> LayerField {
        LayerField(read: { value, key, layer in layer[keyPath: field] = try parse(value, key) },
                   merge: { layer, merged in if let value = layer[keyPath: field] { merged[keyPath: field] = value } },
                   given: { layer, _ in layer[keyPath: field] != nil })
    }

    /// Text.
    static func text(_ field: WritableKeyPath<ManifestLayer, String?> & Sendable) -> LayerField {
        value(field) { value, _ in try value.string() }
    }

    /// True or false.
    static func bool(_ field: WritableKeyPath<ManifestLayer, Bool?> & Sendable) -> LayerField {
        value(field) { value, _ in try value.bool() }
    }

    /// A whole number in the key's ``ManifestKey/Values/wholeNumbers(_:)``.
    static func wholeNumber(_ field: WritableKeyPath<ManifestLayer, Int?> & Sendable) -> LayerField {
        value(field) { value, key in try value.int(in: key.wholeNumbers) }
    }

    /// A number in the key's ``ManifestKey/Values/numbers(_:)``.
    static func number(_ field: WritableKeyPath<ManifestLayer, Double?> & Sendable) -> LayerField {
        value(field) { value, key in try value.double(in: key.numbers) }
    }

    /// One of an enumeration's values; anything else is refused with `refusal`'s message for
    /// the value found (already shortened to an excerpt).
    static func choice<T: RawRepresentable & Sendable>(_ field: WritableKeyPath<ManifestLayer, T?> & Sendable,
                                                       refusal: @escaping @Sendable (String) -> String) -> LayerField where T.RawValue == String {
        value(field) { value, _ in
            let written = try value.string()
            guard let choice = T(rawValue: written) else { throw value.error(refusal(UserText.excerpt(written))) }
            return choice
        }
    }

    /// One of an enumeration's values, refused as "must be `expected`, found "VALUE"".
    static func choice<T: RawRepresentable & Sendable>(_ field: WritableKeyPath<ManifestLayer, T?> & Sendable,
                                                       mustBe expected: String) -> LayerField where T.RawValue == String {
        choice(field) { found in "must be \(expected), found \"\(found)\"" }
    }

    /// A mapping of keys that have fields of their own (`audio`, `retry`), each read and merged by its field.
    static let mapping = LayerField(
        read: { value, key, layer in try ManifestLayer.readFields(of: key.path, from: value.mapping(schema: key.path), into: &layer) },
        merge: { _, _ in },
        given: { layer, key in ManifestSchema.keys.contains { $0.parent == key.path && $0.field?.given(layer, $0) == true } })
}
