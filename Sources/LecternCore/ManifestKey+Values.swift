extension ManifestKey {
    /// The values a key takes, as typed values: the parser checks a value against them and the
    /// documentation shows them, so the two cannot disagree (`voice.rate`'s `0…1` in the
    /// reference and "expected a number from 0 to 1" in an error come from one range).
    public enum Values: Sendable, Equatable {
        /// A number in the range (`loudness.target`: `-40…-5`).
        case numbers(ClosedRange<Double>)
        /// A whole number in the range (`priority`: `-1000…1000`).
        case wholeNumbers(ClosedRange<Int>)
        /// One of these words (an enumeration's raw values: see ``choices(of:)``).
        case choices([String])
        /// What the documentation says of a value the parser checks in its own way (`a regular expression`).
        case described(String)

        /// The raw values of an enumeration, in its order.
        public static func choices<T: RawRepresentable & CaseIterable>(of type: T.Type) -> Values where T.RawValue == String {
            .choices(T.allCases.map(\.rawValue))
        }

        /// As the documentation shows it: `0…1`, `sentences, captions`.
        public var documented: String {
            if let bounds { return "\(bounds.lower)…\(bounds.upper)" }
            switch self {
            case .choices(let words): return words.joined(separator: ", ")
            case .described(let text): return text
            case .numbers, .wholeNumbers: preconditionFailure("a range has bounds")
            }
        }

        /// A range's bounds as the documentation and the parser's range error write them (`-40`, `0.1`).
        public var bounds: (lower: String, upper: String)? {
            switch self {
            case .numbers(let r): return (Self.written(r.lowerBound), Self.written(r.upperBound))
            case .wholeNumbers(let r): return (String(r.lowerBound), String(r.upperBound))
            case .choices, .described: return nil
            }
        }

        /// A number as Lectern writes it to a user: `2` rather than `2.0`, `0.1`.
        static func written(_ x: Double) -> String {
            x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
        }
    }

    /// The range of a key that takes a number (a programming error for any other key).
    var numbers: ClosedRange<Double> {
        guard case .numbers(let range)? = values else { preconditionFailure("\(path) takes no number range") }
        return range
    }

    /// The range of a key that takes a whole number (a programming error for any other key).
    var wholeNumbers: ClosedRange<Int> {
        guard case .wholeNumbers(let range)? = values else { preconditionFailure("\(path) takes no whole-number range") }
        return range
    }
}
