import LecternCore

/// An episode's transcript for a podcast feed (`podcast:transcript`, `text/vtt`): the book's
/// WebVTT export (``WebVTTWriter``, word timestamps included) of the episode's chapters, its
/// times moved to the episode's own audio.
public enum PodcastTranscript {
    /// The WebVTT of the chapters numbered `chapters` of `document` (all of them when nil), every
    /// time moved `offsetMs` earlier (where the episode's audio starts in the book's) and never
    /// before 0.
    public static func webVTT(_ document: TimingDocument, chapters: Set<Int>? = nil, offsetMs: Int = 0,
                              cues: WebVTTCues = .sentences) -> String {
        var episode = document
        episode.chapters = document.chapters.filter { chapters?.contains($0.number) ?? true }.map { shifted($0, by: offsetMs) }
        episode.parts = nil
        return WebVTTWriter.render(episode, cues: cues)
    }

    /// A chapter with every time `offset` ms earlier.
    static func shifted(_ chapter: ChapterTiming, by offset: Int) -> ChapterTiming {
        guard offset != 0 else { return chapter }
        let move = { (ms: Int) in max(0, ms - offset) }
        var c = chapter
        c.start = move(c.start)
        c.end = move(c.end)
        for p in c.paragraphs.indices {
            c.paragraphs[p].start = move(c.paragraphs[p].start)
            c.paragraphs[p].end = move(c.paragraphs[p].end)
            for s in c.paragraphs[p].sentences.indices {
                c.paragraphs[p].sentences[s].start = move(c.paragraphs[p].sentences[s].start)
                c.paragraphs[p].sentences[s].end = move(c.paragraphs[p].sentences[s].end)
                for w in c.paragraphs[p].sentences[s].words.indices {
                    c.paragraphs[p].sentences[s].words[w].start = move(c.paragraphs[p].sentences[s].words[w].start)
                    c.paragraphs[p].sentences[s].words[w].end = move(c.paragraphs[p].sentences[s].words[w].end)
                }
            }
        }
        return c
    }
}
