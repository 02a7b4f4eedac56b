import Foundation
import LecternSchedule

/// The fields (``LayerField``) of keys read by the generic reading but checked in their own way,
/// named by their declarations in ``table``.
extension ManifestSchema {
    /// `name:` — a file name without `/`, not hidden.
    static let nameField = LayerField.value(\.name) { value, _ -> String in
        let name = try value.string()
        if name.isEmpty || name.contains("/") { throw value.error("must be a non-empty file name without '/'") }
        if name.hasPrefix(".") {
            throw value.error("may not start with '.': the outputs (\(UserText.escapingControls(name)).mp3 …) would be hidden files; give a name such as \"book\"")
        }
        return name
    }

    /// `schedule:` — a cron expression that can fire.
    static let scheduleField = LayerField.value(\.schedule) { value, _ -> String in
        let expression = try value.string()
        do throws(ScheduleError) { _ = try CronSchedule(expression) } catch { throw value.error(UserText.excerpt(error.description, limit: 300)) }
        return expression
    }

    /// `timezone:` — an IANA zone this system knows.
    static let timeZoneField = LayerField.value(\.timeZone) { value, _ -> String in
        let name = try value.string()
        guard TimeZone(identifier: name) != nil else {
            throw value.error("unknown time zone \"\(UserText.excerpt(name))\" (an IANA name such as Europe/Berlin or America/New_York)")
        }
        return name
    }

    /// `audio.bitrate:` — one of ``AudioSettings/validBitrates``.
    static let bitrateField = LayerField.value(\.bitrate) { value, _ -> Int in
        // MPEG-2 Layer III's bitrates span 8…160 kbit/s; those that cannot carry the LAME tag are refused saying so.
        let bitrate = try value.int(in: 8...160)
        guard AudioSettings.validBitrates.contains(bitrate) else {
            throw value.error("\(bitrate) is not an MP3 bitrate at 22050 Hz that can carry the LAME tag (one of \(AudioSettings.validBitrates.map(String.init).joined(separator: ", ")))")
        }
        return bitrate
    }

    /// `loudness:` — `off`, or a mapping of `target` and `true_peak` (each in its declared range).
    static let loudnessField = LayerField.value(\.loudness) { value, _ -> LoudnessTarget? in
        if value.isMapping {
            let m = try value.mapping(schema: "loudness")
            return LoudnessTarget(integrated: try m.number(.loudnessTarget) ?? LoudnessTarget.standard.integrated,
                                  truePeakLimit: try m.number(.loudnessTruePeak) ?? LoudnessTarget.standard.truePeakLimit)
        }
        let written = try value.string()
        guard written == "off" else {
            throw value.error("must be off (the engine's levels) or a mapping { target: -18, true_peak: -1.5 }, found \"\(UserText.excerpt(written))\"")
        }
        return nil
    }

    /// `language_switching:` — true, false or detect.
    static let languageSwitchingField = LayerField.value(\.languageSwitching) { value, _ -> LanguageSwitching in
        switch (value.node.bool, value.node.scalar?.string) {
        case (true?, _): return .declared
        case (false?, _): return .off
        case (nil, "detect"?): return .detect
        default:
            let found = value.node.scalar.map { "\"\(UserText.excerpt($0.string))\"" } ?? "a mapping or list"
            throw value.error("must be true (marked languages), false (one voice) or detect (also identify each paragraph's language), found \(found)")
        }
    }

    /// `timings:` — a list of ``TimingFormat``s.
    static let timingsField = LayerField.value(\.timings) { value, _ -> [TimingFormat] in
        try value.list().map { item in
            let written = try item.string()
            guard let format = TimingFormat(rawValue: written) else {
                throw item.error("unknown timing format \"\(UserText.excerpt(written))\" (this version writes: \(TimingFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return format
        }
    }

    /// `formats:` — a list of ``AudioFormat``s, each once, at least one.
    static let formatsField = LayerField.value(\.formats) { value, _ -> [AudioFormat] in
        var chosen: [AudioFormat] = []
        for item in try value.list() {
            let written = try item.string()
            guard let format = AudioFormat(rawValue: written) else {
                throw item.error("unknown audio format \"\(UserText.excerpt(written))\" (this version writes: \(AudioFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard !chosen.contains(format) else { throw item.error("\(written) is listed twice") }
            chosen.append(format)
        }
        guard !chosen.isEmpty else { throw value.error("must list at least one format (\(AudioFormat.allCases.map(\.rawValue).joined(separator: ", ")))") }
        return chosen
    }
}
