import LecternSpeech

/// How long a chapter will play before it is rendered: its pauses and its utterances' delays,
/// which the assembler inserts exactly, plus each utterance's estimated speaking time
/// (``SpeechDuration``: from the letters, digits and inner pauses of what the engine is given,
/// at the voice's rate).
public enum NarrationEstimate {
    public static func seconds(_ chapter: PlannedChapter) -> Double {
        chapter.pause.before + chapter.pause.after + chapter.utterances.reduce(0) { total, u in
            total + u.preDelay + u.postDelay + SpeechDuration.seconds(u)
        }
    }
}
