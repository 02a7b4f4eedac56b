/// Where each text word starts in a Piper model's phoneme input, found by aligning the phonemes
/// espeak-ng spoke for each word (its phoneme events, which tie every phoneme to a word) with the
/// input (espeak-ng's phonemes of the same sentence, clause by clause).
///
/// The two phoneme strings come from the same phonemizer but not always alike (a word's events and
/// its clause's IPA differ in ties, stress and now and then a vowel), and their words do not match
/// one to one (numbers, abbreviations, function words joined to the next word), so they are aligned
/// by edit distance over their phonemes alone — stress marks, spaces and punctuation left out. A
/// word starts at the input phoneme aligned with its first phoneme, moved back over the stress
/// marks just before it (they are part of its first syllable) and the space before those unless
/// punctuation comes before the space (then the space may hold a pause): the model gives the space
/// (and the pads around it) the frames of the transition into the word — measured on Alice against
/// PocketSphinx, word starts at the first phoneme's frames were 50 ms late (median), about the
/// frames of a space and its pads.
struct PhonemeWordAlignment {
    /// For each word, the index in the input's Unicode scalars where it starts; nil for a word none
    /// of whose phonemes is aligned with the input's (or that has no phonemes).
    let starts: [Int?]

    /// - parameter input: the model's phoneme input, as Unicode scalars.
    /// - parameter words: each word's phonemes (IPA), in order.
    init(input: [Unicode.Scalar], words: [String]) {
        let b = input.indices.filter { !Self.ignored(input[$0]) }
        var a: [(scalar: Unicode.Scalar, word: Int)] = []
        for (w, phonemes) in words.enumerated() {
            a += phonemes.unicodeScalars.filter { !Self.ignored($0) }.map { ($0, w) }
        }
        let aligned = Self.align(a.map(\.scalar), b.map { input[$0] })
        var starts = [Int?](repeating: nil, count: words.count)
        for (i, entry) in a.enumerated() where starts[entry.word] == nil {
            guard let j = aligned[i] else { continue }
            var start = b[j]
            while start > 0, Self.stress.contains(input[start - 1]) { start -= 1 }
            // After punctuation the space may hold the pause: the word starts after it.
            if start > 1, input[start - 1] == " ", !Self.ignored(input[start - 2]) { start -= 1 }
            starts[entry.word] = start
        }
        self.starts = starts
    }

    /// Primary and secondary stress.
    static let stress: Set<Unicode.Scalar> = ["ˈ", "ˌ"]

    /// Whether a scalar is not a phoneme: stress, a space, punctuation, a pause.
    static func ignored(_ s: Unicode.Scalar) -> Bool {
        stress.contains(s) || s.properties.isWhitespace || s.properties.generalCategory.isPunctuation
            || s == "_" || s == "|" || s == "‖"
    }

    /// For each element of `a`, the index of the element of `b` it is aligned with (equal or
    /// substituted), or nil when it is left out: the alignment of least edit distance (unit costs),
    /// ties going to the diagonal.
    static func align(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> [Int?] {
        let n = a.count, m = b.count
        guard n > 0, m > 0 else { return [Int?](repeating: nil, count: n) }
        // 0 diagonal, 1 up (a[i] left out), 2 left (b[j] left out).
        var step = [UInt8](repeating: 0, count: (n + 1) * (m + 1))
        var previous = Array(0...m), current = [Int](repeating: 0, count: m + 1)
        for j in 1...m { step[j] = 2 }
        for i in 1...n {
            current[0] = i
            step[i * (m + 1)] = 1
            for j in 1...m {
                let diagonal = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                let up = previous[j] + 1, left = current[j - 1] + 1
                if diagonal <= up && diagonal <= left {
                    current[j] = diagonal
                } else if up <= left {
                    current[j] = up
                    step[i * (m + 1) + j] = 1
                } else {
                    current[j] = left
                    step[i * (m + 1) + j] = 2
                }
            }
            swap(&previous, &current)
        }
        var result = [Int?](repeating: nil, count: n)
        var i = n, j = m
        while i > 0 || j > 0 {
            switch step[i * (m + 1) + j] {
            case 0 where i > 0 && j > 0:
                result[i - 1] = j - 1
                i -= 1
                j -= 1
            case 1 where i > 0: i -= 1
            default: j -= 1
            }
        }
        return result
    }
}

private extension Unicode.GeneralCategory {
    var isPunctuation: Bool {
        switch self {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation: true
        default: false
        }
    }
}
