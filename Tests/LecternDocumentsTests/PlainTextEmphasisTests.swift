import Testing
@testable import LecternDocuments

/// `_italics_`: pairs of underscores that mark emphasis are removed, others kept.
@Suite struct PlainTextEmphasisTests {
    @Test(arguments: [
        ("It was _very_ hot.", "It was very hot."),
        ("_Un_important", "Unimportant"),
        ("sure_ly_ and other_wise_", "surely and otherwise"),
        ("a _took a\nwatch_ out", "a took a\nwatch out"),
        ("A_1 and _very_", "A_1 and very"),
        ("snake_case_name", "snake_case_name"),
        ("an unpaired _ stays", "an unpaired _ stays"),
        ("x __ y", "x __ y"),
        ("_To some of_ Northanger Abbey, _its finish, and_ entrain", "To some of Northanger Abbey, its finish, and entrain"),
        ("of_ Northanger Abbey, _its", "of_ Northanger Abbey, _its"),  // out of context, neither starts nor ends a word
    ])
    func underscores(input: String, output: String) {
        #expect(Emphasis.remove(input) == output)
    }

    @Test func paragraphsAndNotesLoseTheirItalicMarks() {
        let items = analysed("CHAPTER I.\n\nThere was nothing so _very_\nremarkable.\n\n[1] _Kong_. His disciples.")
        #expect(summary(items).dropFirst() == ["P: There was nothing so very remarkable.", "S footnote label: [1]", "N 1: Kong. His disciples."])
    }
}
