import Foundation
import Testing
@testable import LecternServe

@Suite struct ServedManifestTests {
    let uploaded: Set<String> = ["book.txt", "cover.jpg", "words.yml"]

    @Test func keepsTheUploadedTextAndAppendsTheOutputFolder() throws {
        let text = "title: A Book\nsources: [book.txt]\ncover: cover.jpg\nlexicons: [words.yml]\n"
        let stored = try ServedManifest.fromUpload(text, uploaded: uploaded)
        #expect(stored == text + "output: ../output\n")
    }

    @Test(arguments: [
        ("sources: [/etc/passwd]\n", "manifest.sources[0]"),
        ("sources:\n  - path: ../../secret.txt\n", "manifest.sources[0].path"),
        ("sources: [book.txt]\ncover: /srv/cover.jpg\n", "manifest.cover"),
        ("sources: [book.txt]\nlexicons: ~/words.yml\n", "manifest.lexicons"),
        ("sources: [book.txt]\noutput: /tmp/x\n", "manifest.output"),
        ("sources: [book.txt]\nvoice: { engine: piper, model: /opt/voice.onnx }\n", "manifest.voice.model"),
        ("sources: [other.txt]\n", "manifest.sources[0]"),
    ])
    func refusesFilesOnTheServer(text: String, field: String) {
        #expect {
            _ = try ServedManifest.fromUpload(text, uploaded: uploaded)
        } throws: { error in
            (error as? ServeError)?.field == field && (error as? ServeError)?.status.code == 400
        }
    }

    @Test func aGlobMustMatchAnUploadedFile() throws {
        _ = try ServedManifest.fromUpload("sources: ['*.txt']\n", uploaded: uploaded)
        #expect(throws: ServeError.self) { try ServedManifest.fromUpload("sources: ['*.md']\n", uploaded: uploaded) }
    }

    @Test func writesAManifestWhoseStringsSurviveQuoting() throws {
        let text = ServedManifest.written(name: "book", documents: ["a: b.txt"], cover: nil, lexicons: [],
                                          settings: .init(title: "It's \"quoted\": #1", author: nil, voice: "en-gb", rate: 0.6))
        #expect(text.contains("output: ../output"))
        #expect(text.contains("rate: 0.6"))
        #expect(text.contains("'It''s \"quoted\": #1'") || text.contains("\"It's \\\"quoted\\\": #1\""))
    }

    @Test func safeNamesKeepOnlyTheLastComponent() throws {
        #expect(try SafeName.file("C:\\Users\\me\\book.txt", field: "document") == "book.txt")
        #expect(try SafeName.file("../../etc/passwd", field: "document") == "passwd")
        #expect(throws: ServeError.self) { try SafeName.file("..", field: "document") }
        #expect(throws: ServeError.self) { try SafeName.file(".hidden", field: "document") }
        #expect(throws: ServeError.self) { try SafeName.file("a\u{7}b", field: "document") }
        #expect(SafeName.jobName("Alice's Adventures!") == "alice-s-adventures")
    }
}
