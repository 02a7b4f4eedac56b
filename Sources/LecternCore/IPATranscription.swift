/// Converts English IPA (PLS lexicons, SSML `ph`) to espeak-ng mnemonics, as read inside `[[ ]]`.
///
/// Longest match over Unicode scalars. Vowels: æ→a ɑ→A: ɒ→0 ɔ→O: ə→@ ɛ/e→E ɪ→I i→i ʊ→U u→u:
/// ʌ→V ɜ→3: ɐ→a# ɨ/ᵻ→I# o→oU; under stress i→i:, ə→V, ɚ/ər→3:. Diphthongs: eɪ→eI aɪ→aI ɔɪ→OI
/// oʊ/əʊ→oU aʊ→aU ɪə→i@3 eə→e@ ʊə→U@. R-coloured: ɝ→3: ɚ→3, and when no vowel follows the r:
/// ɜr→3: ər→3 ɑr→A@ ɔr→O@ or→o@ ɛr→e@ ɪr→i@3 ʊr→U@ aɪər→aI3 aʊər→aU3 (r or ɹ).
/// Consonants: θ→T ð→D ʃ→S ʒ→Z ŋ→N tʃ→tS dʒ→dZ y→j ɹ→r ɫ→l ʍ→w# ʔ→? ɾ→t#; n̩→n- m̩→m- l̩→@L.
/// ˈ ˌ (or ') become ' , before the stressed vowel. Ignored: tie bars, syllable dots and hyphens,
/// non-syllabic, aspiration, unreleased, voiceless and dental marks, ˑ and stray ː. Spaces separate words.
public enum IPATranscription {
    /// The espeak-ng phonemes, or nil with the IPA symbols that have no espeak-ng equivalent.
    public struct Result: Sendable, Equatable {
        public var phonemes: String?
        public var unsupported: [String]
    }

    /// Converts an English IPA transcription to espeak-ng mnemonics, e.g. "həˈloʊ" → "h@l'oU".
    public static func espeak(fromIPA ipa: String) -> Result {
        let input = normalized(ipa)
        var words: [String] = []
        var word = ""
        var pendingStress: Character?
        var unsupported: [String] = []
        var index = 0

        func endWord() {
            if !word.isEmpty { words.append(word) }
            word = ""
            pendingStress = nil
        }

        while index < input.count {
            let scalar = input[index]
            switch scalar {
            case " ":
                endWord()
                index += 1
                continue
            case "ˈ", "ˌ":
                pendingStress = scalar == "ˈ" ? "'" : ","
                index += 1
                continue
            case ".", "ː":
                index += 1
                continue
            default:
                break
            }
            guard let (entry, length) = match(in: input, at: index) else {
                let symbol = scalar.properties.generalCategory == .nonspacingMark
                    ? "\u{25CC}\(Character(scalar))" : String(Character(scalar))
                if !unsupported.contains(symbol) { unsupported.append(symbol) }
                index += 1
                continue
            }
            if entry.isVowel {
                if let stress = pendingStress {
                    word.append(stress)
                    word += entry.stressed ?? entry.espeak
                } else {
                    word += entry.espeak
                }
                pendingStress = nil
            } else {
                word += entry.espeak
            }
            index += length
        }
        endWord()
        guard unsupported.isEmpty else { return Result(phonemes: nil, unsupported: unsupported) }
        return Result(phonemes: words.joined(separator: " "), unsupported: [])
    }

    // MARK: - Table

    private struct Entry: Sendable {
        var espeak: String
        var stressed: String?
        var isVowel: Bool
        /// R-coloured vowel written with a separate r: only used when no vowel follows the r.
        var codaOnly: Bool
    }

    private static let vowels: [(String, String)] = [
        ("a", "a"), ("aː", "A:"), ("æ", "a"), ("ɑ", "A:"), ("ɑː", "A:"), ("ɒ", "0"), ("ɒː", "O:"),
        ("ɔ", "O:"), ("ɔː", "O:"), ("ɐ", "a#"), ("ɛ", "E"), ("e", "E"), ("ɛː", "e@"), ("eː", "e@"),
        ("ɪ", "I"), ("ɪː", "i:"), ("iː", "i:"), ("ɨ", "I#"), ("ᵻ", "I#"), ("ʊ", "U"), ("ʊː", "u:"),
        ("u", "u:"), ("uː", "u:"), ("ʉ", "u:"), ("ʉː", "u:"), ("ʌ", "V"), ("o", "oU"), ("oː", "oU"),
        ("ɜ", "3:"), ("ɜː", "3:"), ("əː", "3:"), ("ɝ", "3:"), ("ɝː", "3:"), ("ᵊ", "@"),
        ("eɪ", "eI"), ("aɪ", "aI"), ("ɑɪ", "aI"), ("ɔɪ", "OI"), ("oʊ", "oU"), ("əʊ", "oU"),
        ("aʊ", "aU"), ("ɑʊ", "aU"), ("ɪə", "i@3"), ("eə", "e@"), ("ɛə", "e@"), ("ʊə", "U@"),
        ("ɔə", "O@"), ("aɪə", "aI@"), ("aʊə", "aU@"),
        ("ɑ˞", "A@"), ("ɔ˞", "O@"), ("ɛ˞", "e@"), ("ɜ˞", "3:"),
        ("ɑ̃", "A~"), ("ɒ̃", "O~"), ("ɔ̃", "O~"),
        ("n̩", "n-"), ("m̩", "m-"), ("l̩", "@L"), ("ɫ̩", "@L"), ("ɹ̩", "3"), ("r̩", "3"),
    ]

    /// Vowels whose espeak-ng form changes under stress: espeak's `i`, `@` and `3` are unstressed.
    private static let stressedVowels: [(String, String, String)] = [
        ("i", "i", "i:"), ("ə", "@", "V"), ("ɚ", "3", "3:"), ("ə˞", "3", "3:"),
    ]

    private static let rColoured: [(String, String)] = [
        ("ɑr", "A@"), ("ɑːr", "A@"), ("ɔr", "O@"), ("ɔːr", "O@"), ("or", "o@"), ("oːr", "o@"),
        ("ɛr", "e@"), ("er", "e@"), ("ɛər", "e@"), ("eər", "e@"), ("ɛːr", "e@"),
        ("ɪr", "i@3"), ("ɪər", "i@3"), ("ir", "i@3"), ("iər", "i@3"),
        ("ʊr", "U@"), ("ʊər", "U@"), ("ur", "U@"), ("ɜr", "3:"), ("ɜːr", "3:"),
        ("ər", "3"), ("aɪr", "aI3"), ("aɪər", "aI3"), ("aɪɚ", "aI3"), ("aʊr", "aU3"), ("aʊər", "aU3"), ("aʊɚ", "aU3"),
    ]

    private static let consonants: [(String, String)] = [
        ("p", "p"), ("b", "b"), ("t", "t"), ("d", "d"), ("k", "k"), ("g", "g"), ("ɡ", "g"),
        ("f", "f"), ("v", "v"), ("θ", "T"), ("ð", "D"), ("s", "s"), ("z", "z"), ("ʃ", "S"), ("ʒ", "Z"),
        ("h", "h"), ("ɦ", "h"), ("x", "x"), ("m", "m"), ("n", "n"), ("ŋ", "N"), ("l", "l"), ("ɫ", "l"),
        ("r", "r"), ("ɹ", "r"), ("ɻ", "r"), ("j", "j"), ("y", "j"), ("w", "w"), ("ʍ", "w#"),
        ("tʃ", "tS"), ("ʧ", "tS"), ("dʒ", "dZ"), ("ʤ", "dZ"), ("ʔ", "?"), ("ɾ", "t#"),
    ]

    private static let table: [String: Entry] = {
        var table: [String: Entry] = [:]
        for (ipa, espeak) in consonants {
            table[ipa] = Entry(espeak: espeak, isVowel: false, codaOnly: false)
        }
        for (ipa, espeak) in vowels {
            table[ipa] = Entry(espeak: espeak, isVowel: true, codaOnly: false)
        }
        for (ipa, plain, stressed) in stressedVowels {
            table[ipa] = Entry(espeak: plain, stressed: stressed, isVowel: true, codaOnly: false)
        }
        for (ipa, espeak) in rColoured {
            let entry = Entry(espeak: espeak, stressed: ipa == "ər" ? "3:" : nil, isVowel: true, codaOnly: true)
            table[ipa] = entry
            table[ipa.replacingR()] = entry
        }
        return table
    }()

    private static let longestKey = table.keys.map { $0.unicodeScalars.count }.max() ?? 1

    /// Scalars that begin a vowel entry; an r before one of them starts the next syllable.
    private static let vowelStarts: Set<Unicode.Scalar> = Set(
        table.filter { $0.value.isVowel && !$0.value.codaOnly }.compactMap { $0.key.unicodeScalars.first }
            .filter { !"nmlɫɹr".unicodeScalars.contains($0) }
    )

    private static func match(in input: [Unicode.Scalar], at start: Int) -> (Entry, Int)? {
        var length = min(longestKey, input.count - start)
        while length > 0 {
            var key = String.UnicodeScalarView()
            key.append(contentsOf: input[start..<(start + length)])
            if let entry = table[String(key)], !(entry.codaOnly && vowelFollows(input, from: start + length)) {
                return (entry, length)
            }
            length -= 1
        }
        return nil
    }

    private static func vowelFollows(_ input: [Unicode.Scalar], from index: Int) -> Bool {
        var index = index
        while index < input.count, "ˈˌ.ː".unicodeScalars.contains(input[index]) { index += 1 }
        return index < input.count && vowelStarts.contains(input[index])
    }

    /// Folds spelling variants and drops marks that espeak-ng does not need.
    private static func normalized(_ ipa: String) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        for scalar in ipa.unicodeScalars {
            switch scalar {
            case "\u{0361}", "\u{035C}", "\u{032F}", "\u{02B0}", "\u{031A}", "\u{0325}", "\u{030A}",
                 "\u{032A}", "\u{02D1}":
                continue  // tie bars, non-syllabic, aspiration, unreleased, voiceless, dental, half-long
            case "'", "\u{2019}": result.append("ˈ")
            case ":": result.append("ː")
            case "-", "\u{2027}": result.append(".")
            default:
                if scalar.properties.isWhitespace {
                    if result.last != " " { result.append(" ") }
                } else {
                    result.append(scalar)
                }
            }
        }
        return result
    }
}

private extension String {
    /// "ɑr" → "ɑɹ": the r-coloured table accepts either rhotic letter.
    func replacingR() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "r" ? "ɹ" : $0 }))
    }
}
