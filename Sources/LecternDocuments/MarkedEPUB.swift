import Foundation

/// An EPUB's content documents with the narrated text marked (``EPUBTextMarker``): the new
/// XHTML, and where each paragraph's marks are.
public struct MarkedEPUB: Sendable {
    /// The new bytes (UTF-8 XHTML) of every content document that got a mark, by its path
    /// inside the EPUB (e.g. "OEBPS/ch1.xhtml").
    public var documents: [String: Data]
    /// One per paragraph given to ``EPUBTextMarker/mark(_:stylesheet:)``, in the same order;
    /// nil where the paragraph's text was not found in the EPUB or could not be marked.
    public var placements: [ParagraphPlacement?]

    public init(documents: [String: Data], placements: [ParagraphPlacement?]) {
        self.documents = documents
        self.placements = placements
    }
}

/// Where a paragraph's marks ended up: a SMIL `<text src="DOCUMENT#ID"/>` points at them.
public struct ParagraphPlacement: Sendable, Equatable {
    /// The content document's path inside the EPUB, e.g. "OEBPS/ch1.xhtml".
    public var document: String
    /// The id of the element holding exactly the paragraph: its own element (`p`, `li`, `h1` …,
    /// with the id it already had), or a `span` added around it.
    public var id: String
    /// One per sentence of the paragraph, in order.
    public var sentences: [SentencePlacement]

    public init(document: String, id: String, sentences: [SentencePlacement]) {
        self.document = document
        self.id = id
        self.sentences = sentences
    }
}

/// Where a sentence's marks ended up.
public struct SentencePlacement: Sendable, Equatable {
    /// The id of the `span` around the sentence, or nil when it could not be marked.
    public var id: String?
    /// The ids of the `span`s around the sentence's words, one per word; nil for a word that
    /// could not be marked.
    public var words: [String?]

    public init(id: String?, words: [String?]) {
        self.id = id
        self.words = words
    }
}
