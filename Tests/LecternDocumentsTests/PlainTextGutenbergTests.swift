import Testing
@testable import LecternDocuments

/// Project Gutenberg's header, producer's credit and licence, in their different spellings.
@Suite struct PlainTextGutenbergTests {
    @Test(arguments: [
        "*** START OF THIS PROJECT GUTENBERG EBOOK ALICE ***",
        "***START OF THE PROJECT GUTENBERG EBOOK NEWS FROM NOWHERE***",
        "*** START OF THE PROJECT GUTENBERG EBOOK",
        "*END*THE SMALL PRINT! FOR PUBLIC DOMAIN ETEXTS*Ver.04.29.93*END*",
    ])
    func startMarkersEndTheHeader(marker: String) {
        let items = analysed("The Project Gutenberg EBook of X\n\nLicence words.\n\(marker)\n\nThe story begins.\n")
        #expect(summary(items) == ["S Project Gutenberg header: The Project Gutenberg EBook of X Licence words. \(marker)",
                                   "P: The story begins."])
    }

    @Test(arguments: [
        "*** END OF THIS PROJECT GUTENBERG EBOOK ALICE ***",
        "***END OF THE PROJECT GUTENBERG EBOOK NEWS FROM NOWHERE***",
        "End of the Project Gutenberg EBook of Alice, by Lewis Carroll",
        "End of Project Gutenberg's Jack Sheppard, by William Harrison Ainsworth",
    ])
    func endLinesStartTheLicence(end: String) {
        let items = analysed("*** START OF THIS PROJECT GUTENBERG EBOOK X ***\n\nThe story.\n\n\(end)\n\nSection 1. General Terms of Use\n")
        #expect(summary(items).dropFirst() == ["P: The story.", "S Project Gutenberg licence: \(end) Section 1. General Terms of Use"])
    }

    @Test func theProducersCreditAfterTheStartIsSkipped() {
        let text = """
            header
            *** START OF THIS PROJECT GUTENBERG EBOOK X ***



            Produced by Jason Isbell, Ben Beasley and the Online
            Distributed Proofreading Team at http://www.pgdp.net


            The story.
            """
        #expect(summary(analysed(text)) == [
            "S Project Gutenberg header: header *** START OF THIS PROJECT GUTENBERG EBOOK X ***",
            "S producer's credit: Produced by Jason Isbell, Ben Beasley and the Online Distributed Proofreading Team at http://www.pgdp.net",
            "P: The story.",
        ])
    }

    @Test func aTextWithoutMarkersHasNoHeaderOrLicence() {
        let boundaries = GutenbergBoundaries.find(in: ["Alice was beginning.", "", "End of the story, she thought."])
        #expect(boundaries == GutenbergBoundaries())
    }
}
