import Foundation
import LecternCore
import Testing
import LecternAudio

/// M4B files as tools nobody here wrote read them: ffprobe and ffmpeg (chapters, tags, the
/// decoded audio), mutagen (every iTunes atom, Nero chapters), AtomicParsley (the atom tree) and
/// mediainfo (duration, chapter menu).
@Suite struct M4BWriterTests {
    typealias Support = M4BSupport
    static let book = Support.book

    @Test func ffprobeReadsEveryChapterTagAndTheAudioStream() throws {
        let probe = try Support.probe(try Support.write(Self.book))
        let chapters = try #require(probe["chapters"] as? [[String: Any]])
        #expect(chapters.count == Support.chapters.count)
        for (read, mark) in zip(chapters, Support.chapters) {
            #expect((read["tags"] as? [String: String])?["title"] == mark.title)
            let start = try #require(Double(read["start_time"] as? String ?? "")), end = try #require(Double(read["end_time"] as? String ?? ""))
            #expect(abs(start * 1000 - Double(mark.startMs)) < 1 && abs(end * 1000 - Double(mark.endMs)) < 1, "\(read)")
        }
        let format = try #require(probe["format"] as? [String: Any])
        let tags = try #require(format["tags"] as? [String: String])
        let details = Support.details
        #expect(tags["major_brand"] == "M4B ")
        #expect(tags["title"] == Self.book.title && tags["album"] == Self.book.album && tags["artist"] == Self.book.artist)
        #expect(tags["composer"] == details.narrator && tags["description"] == details.description && tags["genre"] == details.genre)
        #expect(tags["date"] == details.date && tags["copyright"] == details.copyright && tags["media_type"] == "2")
        #expect(tags["PUBLISHER"] == details.publisher && tags["SERIES"] == details.series && tags["SERIES-PART"] == details.seriesIndex)
        #expect(tags["ISBN"] == details.isbn)
        #expect(tags["encoder"] == nil && tags["creation_time"] == nil)
        let duration = try #require(Double(format["duration"] as? String ?? ""))
        #expect(abs(duration - Double(Support.length) / Double(Support.sampleRate)) < 0.01)

        let streams = try #require(probe["streams"] as? [[String: Any]])
        let audio = try #require(streams.first { $0["codec_type"] as? String == "audio" })
        #expect(audio["codec_name"] as? String == "aac" && audio["profile"] as? String == "LC")
        #expect(audio["sample_rate"] as? String == "22050" && audio["channels"] as? Int == 1)
        #expect((audio["tags"] as? [String: String])?["language"] == "fra")
        let bitrate = try #require(Int(audio["bit_rate"] as? String ?? ""))
        #expect((48_000...80_000).contains(bitrate), "\(bitrate) bit/s for 64,000 asked (the fast coder undershoots on a tone)")
        let cover = try #require(streams.first { $0["codec_type"] as? String == "video" })
        #expect(cover["codec_name"] as? String == "mjpeg" && (cover["disposition"] as? [String: Int])?["attached_pic"] == 1)
    }

    @Test func mutagenListsEveryFieldInItsAtomTheCoverAndTheNeroChapters() throws {
        let read = try Support.mutagen(try Support.write(Self.book))
        let tags = try #require(read["tags"] as? [String: [String]])
        for field in MetadataField.allCases where MP4Metadata.atom(for: field) != "mdhd" {
            let value = Self.book.value(of: field)
            #expect(tags[MP4Metadata.atom(for: field)] == value.map { [$0] }, "\(field)")
        }
        #expect(tags["stik"] == ["2"])
        #expect(tags["covr"] == ["jpeg:\(Support.jpeg.count)"])
        let chapters = try #require(read["chapters"] as? [[Any]])
        #expect(chapters.map { $0[1] as? String } == Support.chapters.map(\.title))
        #expect(chapters.map { (($0[0] as? Double ?? -1) * 1000).rounded() } == Support.chapters.map { Double($0.startMs) })
        let info = try #require(read["info"] as? [String: Any])
        #expect(info["rate"] as? Int == 22_050 && info["channels"] as? Int == 1 && info["codec"] as? String == "mp4a.40.2")
    }

    @Test func everyFieldHasAnAtomOfItsOwn() {
        let atoms = MetadataField.allCases.map(MP4Metadata.atom(for:))
        #expect(Set(atoms).count == atoms.count)
    }

    @Test func atomicParsleyListsTheAtomsAndFindsBothChapterLists() throws {
        let url = try Support.write(Self.book)
        let tags = try ExternalTool.run("AtomicParsley", [url.path, "-t"])
        #expect(tags.status == 0)
        #expect(tags.stdout.contains("Atom \"stik\" contains: Audiobook"))
        #expect(tags.stdout.contains("Atom \"covr\" contains: 1 piece of artwork"))
        #expect(tags.stdout.contains("Atom \"©wrt\" contains: Nils Näher"))
        #expect(tags.stdout.contains("[com.apple.iTunes;ISBN] contains: 9780141439518"))
        let tree = try ExternalTool.run("AtomicParsley", [url.path, "-T"])
        #expect(tree.status == 0 && !tree.stdout.lowercased().contains("error"))
        for atom in ["elst", "chap", "text", "chpl", "ilst"] {
            #expect(tree.stdout.contains("Atom \(atom) @"), "\(atom)")
        }
        let top = tree.stdout.split(separator: "\n").filter { $0.hasPrefix("Atom ") || $0.hasPrefix("\u{FEFF}Atom ") }
            .map { $0.split(separator: " ")[1] }
        #expect(top == ["ftyp", "moov", "free", "mdat"], "\(top)")
    }

    @Test func mediainfoReadsTheDurationTheAudioAndTheChapterMenu() throws {
        let url = try Support.write(Self.book)
        let out = try ExternalTool.run("mediainfo", ["--Output=JSON", url.path])
        #expect(out.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        let tracks = try #require((json["media"] as? [String: Any])?["track"] as? [[String: Any]])
        let general = try #require(tracks.first { $0["@type"] as? String == "General" })
        #expect(general["Format"] as? String == "MPEG-4" && general["ContentType"] as? String == "Audiobook")
        #expect(general["IsStreamable"] as? String == "Yes")  // moov before mdat
        let duration = try #require(Double(general["Duration"] as? String ?? ""))
        #expect(abs(duration - Double(Support.length) / Double(Support.sampleRate)) < 0.01)
        let audio = try #require(tracks.first { $0["@type"] as? String == "Audio" })
        #expect(audio["Format"] as? String == "AAC" && audio["SamplingRate"] as? String == "22050")
        let menu = try #require(tracks.first { $0["@type"] as? String == "Menu" })
        let entries = try #require(menu["extra"] as? [String: String])
        #expect(entries["_00_00_00_000"] == "Ouverture — été")
        #expect(entries["_00_00_04_000"] == "第二章 日本")
        #expect(entries["_00_00_09_500"] == "The End")
    }

    @Test func decodedAudioStartsAtTheFirstSampleSoEachClickIsWhereItWasWritten() throws {
        let decoded = try Support.decode(try Support.write(Self.book))
        #expect(abs(decoded.count - Support.length) < 1024, "\(decoded.count) samples decoded of \(Support.length)")
        for click in Support.clicks {
            let window = (click - 3_000)..<(click + 3_000)
            let loudest = try #require(window.max { abs(Int(decoded[$0])) < abs(Int(decoded[$1])) })
            #expect(abs(loudest - click) <= 3, "a click written at \(click) decodes at \(loudest)")
            #expect(abs(Int(decoded[loudest])) > 20_000)
        }
    }

    @Test func theSameInputGivesTheSameBytes() throws {
        let first = try Data(contentsOf: try Support.write(Self.book))
        let second = try Data(contentsOf: try Support.write(Self.book))
        #expect(first == second)
        #expect(!first.isEmpty)
    }

    @Test func anUnwritablePathIsNamedInTheError() throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/book.m4b")
        do {
            _ = try M4BWriter(url: url, sampleRate: 22_050, bitrate: 64_000, metadata: Self.book)
            Issue.record("no error")
        } catch let error as AudioError {
            #expect(error.message.contains(url.path) && error.message.contains("No such file or directory"), "\(error)")
        }
    }

    @Test func aSampleRateAACCannotEncodeIsRefusedWithTheRatesItTakes() {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("m4b-\(UUID().uuidString).m4b")
        #expect(throws: AudioError.self) { try M4BWriter(url: url, sampleRate: 22_000, bitrate: 64_000, metadata: Self.book) }
        do { _ = try M4BWriter(url: url, sampleRate: 22_000, bitrate: 64_000, metadata: Self.book) } catch {
            #expect("\(error)".contains("22050"), "\(error)")
        }
    }

    @Test func aChapterFileHasItsTrackNumberAndNoChapters() throws {
        var metadata = Self.book.chapterFile(title: "第二章 日本", number: 3, of: 12)
        metadata.cover = .init(mimeType: "image/png", data: Self.png)
        let url = try Support.write(metadata, samples: Array(Support.pcm().prefix(3 * Support.sampleRate)))
        let read = try Support.mutagen(url)
        let tags = try #require(read["tags"] as? [String: [String]])
        #expect(tags["trkn"] == ["3/12"] && tags["©nam"] == ["第二章 日本"] && tags["©alb"] == ["Le Livre 日本"])
        #expect(tags["covr"] == ["png:\(Self.png.count)"] && tags["stik"] == ["2"])
        #expect((read["chapters"] as? [Any])?.isEmpty == true)
        let probe = try Support.probe(url)
        #expect((probe["chapters"] as? [Any])?.isEmpty == true)
        #expect(((probe["format"] as? [String: Any])?["tags"] as? [String: String])?["track"] == "3/12")
        let tree = try ExternalTool.run("AtomicParsley", [url.path, "-T"])
        #expect(!tree.stdout.contains("Atom chpl") && !tree.stdout.contains("Atom chap"))
    }

    @Test func aLongTitleIsCutAtACharacterInTheNeroListAndWholeInTheChapterTrack() throws {
        let long = String(repeating: "日", count: 100)  // 300 bytes of UTF-8; chpl holds 255
        var metadata = Self.book
        metadata.chapters = [.init(title: long, startMs: 0, endMs: 1_000), .init(title: "é", startMs: 1_000, endMs: 2_000)]
        let url = try Support.write(metadata, samples: Array(Support.pcm().prefix(2 * Support.sampleRate)))
        let nero = try #require(try Support.mutagen(url)["chapters"] as? [[Any]])
        #expect(nero.map { $0[1] as? String } == [String(repeating: "日", count: 85), "é"])
        let track = try #require(try Support.probe(url)["chapters"] as? [[String: Any]])
        #expect(track.map { ($0["tags"] as? [String: String])?["title"] } == [long, "é"])
    }

    /// A 1×1 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!
}

/// What M4BWriter refuses or copes with at the edges.
@Suite struct M4BWriterEdgeTests {
    @Test func chaptersOutOfOrderAreRefusedNamingTheChapter() {
        var metadata = M4BSupport.book
        metadata.chapters = [.init(title: "One", startMs: 0, endMs: 500), .init(title: "Two", startMs: 900, endMs: 400)]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("m4b-\(UUID().uuidString).m4b")
        do {
            _ = try M4BWriter(url: url, sampleRate: 22_050, bitrate: 64_000, metadata: metadata)
            Issue.record("no error")
        } catch {
            #expect("\(error)".contains("chapter 2 (\"Two\")") && "\(error)".contains(url.path), "\(error)")
        }
    }

    @Test func aFileWithoutSamplesStillFinishesAndReads() throws {
        var metadata = M4BSupport.book.chapterFile(title: "Empty", number: 1, of: 1)
        metadata.cover = nil
        let url = try M4BSupport.write(metadata, samples: [])
        let tags = try #require(try M4BSupport.mutagen(url)["tags"] as? [String: [String]])
        #expect(tags["©nam"] == ["Empty"])
    }

    @Test func writingAfterFinishIsAnError() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("m4b-\(UUID().uuidString).m4b")
        let writer = try M4BWriter(url: url, sampleRate: 22_050, bitrate: 64_000, metadata: M4BSupport.book)
        try writer.write([1, 2, 3])
        #expect(writer.sampleCount == 3)
        try writer.finish()
        #expect(throws: AudioError.self) { try writer.write([1]) }
        #expect(throws: AudioError.self) { try writer.finish() }
    }
}
