import Testing
@testable import LecternDocuments

/// A play's headings in a plain text (issue 39, item 3): a contents list before the cast list ends
/// where the cast list's title stands, its last act's line is no chapter, and the cast list and the
/// first scene are read; a `PROLOGUE` that labels a speech inside a scene is no heading; a scene's
/// heading on two lines over a bracketed direction is one heading.
struct PlayContentsTests {
    /// Twelve exchanges between two speakers, each name on a line of its own over the speech.
    static func speeches(_ a: String, _ b: String) -> String {
        (1...12).map { i in "\(a).\nSpeak, I am bound to hear, for the \(i). time.\n\n\(b).\nSo art thou to revenge, for the \(i). time.\n\n" }
            .joined()
    }

    /// A cast list an entry a line.
    static let entries = " Dramatis Personæ\n\nHAMLET, Prince of Denmark.\nHORATIO, friend to Hamlet.\nLords, Ladies, Officers, and Attendants.\n"

    /// A cast list run on as a paragraph.
    static let cast = """
         Dramatis Personæ

        HAMLET, Prince of Denmark. HORATIO, friend to Hamlet. Lords, Ladies,
        Officers, Soldiers, Sailors, Messengers, and other Attendants of the
        Court of Denmark, with Players, Grave-diggers and a Priest as well.

        """

    @Test func aContentsListEndsAtTheCastListsTitle() {
        // The entries in blocks, two blank lines between the acts: the list would run on through the cast.
        let text = "Contents\n\nACT I\nScene I. Elsinore. A platform.\nScene II. A room of state.\n\n\n"
            + "ACT II\nScene I. A room in the Castle.\nScene II. Another room.\n\n\n"
            + Self.entries + "\n\nACT I\n\nSCENE I. Elsinore. A platform.\n\n" + Self.speeches("HAMLET", "HORATIO")
            + "ACT II\n\nSCENE I. A room in the Castle.\n\n" + Self.speeches("HAMLET", "HORATIO")
        let s = summary(analysed(text))
        #expect(s.first?.hasPrefix("S contents list: Contents ACT I") == true)
        #expect(s.first?.hasSuffix("Scene II. Another room.") == true)
        #expect(s.dropFirst().first == "H chapter: Dramatis Personæ")
        #expect(s.filter { $0.hasPrefix("H ") } == [
            "H chapter: Dramatis Personæ", "H part: ACT I", "H chapter: SCENE I. Elsinore. A platform.",
            "H part: ACT II", "H chapter: SCENE I. A room in the Castle.",
        ])
    }

    @Test func aContentsListsLastActOverTheCastListIsNoChapter() {
        // One paragraph an act: the last act's entry is one short line, the cast list prose under it.
        let text = "Contents\n\nACT I Scene I. Elsinore. A platform before the Castle. Scene II.\nElsinore. A room of state in the Castle.\n\n"
            + "ACT II Scene I. A room in the Castle. Scene II. Another room.\n\n\n\n"
            + Self.cast + "\n\nACT I\n\nSCENE I. Elsinore. A platform before the Castle.\n\n" + Self.speeches("HAMLET", "HORATIO")
            + "ACT II\n\nSCENE I. A room in the Castle.\n\n" + Self.speeches("HAMLET", "HORATIO")
        let s = summary(analysed(text))
        #expect(s.first?.hasSuffix("Scene II. Another room.") == true)
        #expect(!s.contains { $0.hasPrefix("H chapter: ACT II Scene I.") })
        #expect(s.filter { $0.hasPrefix("H chapter: SCENE") }.count == 2)
    }

    @Test func aPrologueLabellingASpeechInsideASceneIsNoHeading() {
        // The play within the play: its Prologue speaks, laid out as every speaker is.
        let text = "ACT III.\n\nSCENE II. A hall in the Castle.\n\n" + Self.speeches("HAMLET", "OPHELIA")
            + "PROLOGUE.\nFor us, and for our tragedy,\nHere stooping to your clemency,\nWe beg your hearing patiently.\n\n"
            + Self.speeches("HAMLET", "OPHELIA") + "SCENE III. A room in the Castle.\n\n" + Self.speeches("KING", "HAMLET")
        let items = analysed(text)
        let s = summary(items)
        #expect(s.filter { $0.hasPrefix("H ") } == ["H part: ACT III.", "H chapter: SCENE II. A hall in the Castle.", "H chapter: SCENE III. A room in the Castle."])
        // Read in its place, with its speech.
        #expect(items.contains { if case .paragraph(let p) = $0 { p.text.hasPrefix("PROLOGUE.") } else { false } })
    }

    @Test func aPrologueOverItsTextBeforeThePlayIsAHeading() {
        // Before any act, `PROLOGUE` over its text is the prologue's heading, as ever.
        let text = "PROLOGUE.\nTwo households, both alike in dignity, in fair Verona, where we lay our scene,\nfrom ancient grudge break to new mutiny.\n\n"
            + "ACT I.\n\nSCENE I. A public place.\n\n" + Self.speeches("SAMPSON", "GREGORY")
        let s = summary(analysed(text))
        #expect(s.first == "H chapter: PROLOGUE.")
    }

    @Test func aScenesHeadingOnTwoLinesOverABracketedDirection() {
        let text = "ACT III.\n\nSCENE I. Forres. A Room in the Palace.\n\n[Enter Banquo.]\n\n" + Self.speeches("BANQUO", "MACBETH")
            + "SCENE II. The same. A Park or Lawn, with a gate leading to the\nPalace.\n\n[Enter three Murderers.]\n\n"
            + Self.speeches("FIRST MURDERER", "SECOND MURDERER")
        let s = summary(analysed(text))
        #expect(s.filter { $0.hasPrefix("H ") } == [
            "H part: ACT III.", "H chapter: SCENE I. Forres. A Room in the Palace.",
            "H chapter: SCENE II. The same. A Park or Lawn, with a gate leading to the Palace.",
        ])
    }
}
