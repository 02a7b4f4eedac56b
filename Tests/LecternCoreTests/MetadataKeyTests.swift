import Foundation
import Testing
import LecternCore

/// The manifest's descriptive keys: read as written, checked (a real date, a well-formed
/// language, an ISBN with the right check digit, a series index with its series), and filled
/// from the documents' metadata where the manifest is silent.
@Suite struct MetadataKeyTests {
    func load(_ keys: String) throws -> Manifest {
        let dir = try TempDir()
        defer { dir.remove() }
        try dir.write("a.txt")
        return try ManifestLoader(configDirectory: nil).load(try dir.write("book.yml", "title: T\nsources: [a.txt]\n\(keys)\n"))
    }

    func error(_ keys: String) throws -> ManifestError {
        do {
            _ = try load(keys)
        } catch let error as ManifestError {
            return error
        }
        throw TestFailure("no error for \(keys)")
    }

    struct TestFailure: Error { var message: String; init(_ m: String) { message = m } }

    @Test func everyKeyIsRead() throws {
        let m = try load("""
            narrator: Nils
            description: A tale.
            genre: Fiction
            date: 1865-11-26
            series: Tales
            series_index: 2.5
            publisher: Press
            language: en-GB
            copyright: Public domain
            isbn: 0-14-143951-3
            """)
        #expect(m.details == BookDetails(narrator: "Nils", description: "A tale.", genre: "Fiction", date: "1865-11-26", series: "Tales",
                                         seriesIndex: "2.5", publisher: "Press", copyright: "Public domain", isbn: "0141439513"))
        #expect(m.language == "en-GB")
        #expect(try load("year: 1865").details.date == "1865")
    }

    @Test(arguments: [
        ("date: 1865-13-01", "date", "YYYY-MM-DD"),
        ("date: yesterday", "date", "YYYY-MM-DD"),
        ("date: 1865\nyear: 1865", "year", "either date or year"),
        ("year: 18650", "year", "whole number"),
        ("language: not a language", "language", "BCP 47"),
        ("language: und", "language", "BCP 47"),
        ("isbn: 978-0-14-143951-9", "isbn", "check digit"),
        ("isbn: 12345", "isbn", "ISBN-10 or ISBN-13"),
        ("series_index: 2", "series_index", "needs series"),
        ("series: S\nseries_index: second", "series_index", "such as 1 or 2.5"),
        ("narrator: \"\"", "narrator", "must not be empty"),
        ("genre: [a, b]", "genre", "expected a string"),
    ])
    func badValuesNameTheKeyAndWhatIsExpected(keys: String, key: String, message: String) throws {
        let e = try error(keys)
        #expect(e.key == key, "\(e)")
        #expect(e.line != nil, "\(e)")
        #expect(e.message.contains(message), "\(e.message)")
    }

    @Test func theDocumentsFillOnlyWhatTheManifestLeavesOut() throws {
        var book = BookMetadata(title: "Book", language: "fr")
        book.details = BookDetails(narrator: nil, description: "From the EPUB.", genre: "Roman", date: "1900", series: "Other",
                                   seriesIndex: "4", publisher: "Éditions", isbn: "9780141439518", sourceIdentifier: "urn:uuid:x")
        let m = try load("genre: Novel\nseries: Mine\nlanguage: de").filling(from: book)
        #expect(m.details.genre == "Novel")
        #expect(m.details.series == "Mine" && m.details.seriesIndex == nil)  // the EPUB's index belongs to its own series
        #expect(m.details.description == "From the EPUB." && m.details.publisher == "Éditions" && m.details.date == "1900")
        #expect(m.details.sourceIdentifier == "urn:uuid:x" && m.details.isbn == "9780141439518")
        #expect(m.language == "de")
        #expect(try load("").filling(from: book).language == "fr")
    }

    @Test func isbnsAreCheckedAndLanguagesMappedToISO639_2() {
        #expect(BookDetails.isbn("urn:isbn:978-0-14-143951-8") == "9780141439518")
        #expect(BookDetails.isbn("0-8044-2957-X") == "080442957X")
        #expect(BookDetails.isbn("9780141439519") == nil)
        #expect(BookDetails.iso639_2("en-GB") == "eng" && BookDetails.iso639_2("de") == "deu" && BookDetails.iso639_2("grc") == "grc")
        #expect(BookDetails.iso639_2("und") == nil && BookDetails.iso639_2(nil) == nil)
        #expect(BookDetails.leadingDate("2001-05-12T00:00:00Z") == "2001-05-12" && BookDetails.leadingDate("1865") == "1865")
    }
}
