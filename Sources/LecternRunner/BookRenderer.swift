import Foundation
import LecternCore
import LecternSpeech
import LecternAudio
import LecternTiming

/// Renders a narration plan into one MP3 stream, utterance by utterance, and times every word.
///
/// Each utterance's audio is trimmed to its speech, so the configured delays are the silences
/// a listener hears. All positions are counted in samples written to the encoder; because the
/// stream carries a LAME tag, a decoder plays exactly those samples, so sample positions are
/// times in the decoded audio.
struct BookRenderer {
    let engine: EspeakEngine
    let manifest: Manifest

    struct Progress {
        var chapter: PlannedChapter
        var wordsDone: Int
        var samplesDone: Int
        var chapterFinished: Bool
    }

    struct Result {
        var chapters: [ChapterTiming]
        var records: [(number: Int, title: String, hash: String, startSample: Int, sampleCount: Int)]
        var sampleCount: Int
    }

    func render(_ plan: NarrationPlan, to writer: MP3StreamWriter, progress: (Progress) throws -> Void) throws -> Result {
        let rate = engine.sampleRate
        let timer = UtteranceTimer(sampleRate: rate)
        func samples(_ seconds: Double) -> Int { Int((seconds * Double(rate)).rounded()) }
        var position = 0
        var wordsDone = 0
        var chapterTimings: [ChapterTiming] = []
        var records: [(Int, String, String, Int, Int)] = []
        for chapter in plan.chapters {
            let chapterStart = position
            var paragraphs: [ParagraphTiming] = []
            let leading = samples(chapter.pause.before)
            try writer.writeSilence(leading)
            position += leading
            for utterance in chapter.utterances {
                let pre = samples(utterance.preDelay)
                try writer.writeSilence(pre)
                position += pre
                let synthesis = try engine.synthesize(utterance.text, voice: utterance.voice)
                let speech = SilenceTrimmer.speechRange(synthesis.samples)
                let audio = Array(synthesis.samples[speech])
                try writer.write(audio)
                let marks = synthesis.words.map { (offset: $0.textOffset, sample: $0.sample - speech.lowerBound) }
                paragraphs.append(timer.paragraph(kind: utterance.kind, text: utterance.text, voice: utterance.voice.name,
                                                  marks: marks, speechStart: position, speechLength: audio.count))
                position += audio.count
                let post = samples(utterance.postDelay)
                try writer.writeSilence(post)
                position += post
                wordsDone += WordTokenizer.count(in: utterance.text)
                try progress(Progress(chapter: chapter, wordsDone: wordsDone, samplesDone: position, chapterFinished: false))
            }
            let trailing = samples(chapter.pause.after)
            try writer.writeSilence(trailing)
            position += trailing
            chapterTimings.append(ChapterTiming(number: chapter.number, title: chapter.title, start: timer.ms(chapterStart),
                                                end: timer.ms(position), paragraphs: paragraphs))
            records.append((chapter.number, chapter.title, contentHash(chapter), chapterStart, position - chapterStart))
            try progress(Progress(chapter: chapter, wordsDone: wordsDone, samplesDone: position, chapterFinished: true))
        }
        return Result(chapters: chapterTimings, records: records, sampleCount: position)
    }

    /// A hash of everything that determines a chapter's audio.
    func contentHash(_ chapter: PlannedChapter) -> String {
        var hasher = SHA256()
        hasher.update("espeak-ng \(engine.version) \(engine.sampleRate)\n")
        hasher.update("mp3 \(manifest.audio.bitrate) q\(manifest.audio.quality)\n")
        hasher.update("chapter \(chapter.title)\n\(chapter.pause.before) \(chapter.pause.after)\n")
        for u in chapter.utterances {
            hasher.update("\(u.kind.rawValue) \(u.voice.name) \(u.voice.wordsPerMinute) \(u.voice.pitch) \(u.voice.volume) \(u.preDelay) \(u.postDelay)\n")
            hasher.update(u.text)
            hasher.update("\n")
        }
        return hasher.hexDigest()
    }
}
