import Foundation
internal import CEspeakNG

/// One clause of a text as espeak-ng phonemizes it (`espeak_TextToPhonemes`, IPA): where it is in
/// the text and its phonemes, with the clause's closing punctuation, as Piper voices were trained.
public struct PhonemeClause: Sendable, Equatable {
    /// UTF-16 range of the clause in the text, including its punctuation and the spaces after it.
    public var range: Range<Int>
    /// IPA phonemes, words separated by spaces, then the clause's punctuation (`,` `.` `?` …) if any.
    public var phonemes: String

    public init(range: Range<Int>, phonemes: String) {
        self.range = range
        self.phonemes = phonemes
    }

    /// The punctuation that ends a clause and that Piper's phoneme set has.
    static let closingPunctuation: Set<Character> = [",", ".", ";", ":", "!", "?"]

    /// Closing quotes and brackets, which may follow a clause's punctuation.
    static let closers = CharacterSet(charactersIn: "\"'”’»›)]}")

    /// The clauses of `text` with the voice selected in `library`.
    static func clauses(of text: String, library: EspeakLibrary, phonemeInput: Bool) -> [PhonemeClause] {
        let bytes = Array(text.utf8) + [0]
        // UTF-16 offset of each UTF-8 byte offset that starts a character (and of the end).
        var utf16At = [Int](repeating: -1, count: bytes.count)
        var u16 = 0, b = 0
        for scalar in text.unicodeScalars {
            utf16At[b] = u16
            b += String(scalar).utf8.count
            u16 += scalar.utf16.count
        }
        utf16At[b] = u16
        func utf16(_ byte: Int) -> Int {
            var i = min(max(byte, 0), bytes.count - 1)
            while utf16At[i] < 0 { i -= 1 }
            return utf16At[i]
        }
        let units = Array(text.utf16)
        let textMode = Int32(espeakCHARS_UTF8) | (phonemeInput ? Int32(espeakPHONEMES) : 0)
        // espeak_TextToPhonemes reads `[[phonemes]]` only when the last espeak_Synth was asked to
        // (the library keeps the flag in a global, which its textmode argument does not set): a
        // synthesis of a space, with no audio wanted, sets it as this text needs.
        let space: [CChar] = [0x20, 0]
        _ = library.synth(space, space.count, 0, POS_CHARACTER, 0, UInt32(textMode), nil, nil)
        _ = library.synchronize()
        var result: [PhonemeClause] = []
        bytes.withUnsafeBytes { buffer in
            let base = buffer.baseAddress!
            var pointer: UnsafeRawPointer? = base
            while let start = pointer, start - base < bytes.count - 1 {
                guard let ipa = library.textToPhonemes(&pointer, textMode, 0x02) else { break }
                let end = pointer.map { $0 - base } ?? (bytes.count - 1)
                let range = utf16(start - base)..<utf16(end)
                var phonemes = String(cString: ipa).trimmingCharacters(in: .whitespacesAndNewlines)
                // The punctuation before a closing quote or bracket ends the clause too (`curiouser!”`).
                let written = String(decoding: units[range], as: UTF16.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    .trimmingCharacters(in: Self.closers)
                if let last = written.last, closingPunctuation.contains(last) {
                    phonemes += String(last)
                }
                if !phonemes.isEmpty { result.append(PhonemeClause(range: range, phonemes: phonemes)) }
                if end <= start - base { break }  // no progress: never loop
            }
        }
        return result
    }
}
