import Foundation
import Testing

/// The read-along page of a real render in headless Chromium, driven by Playwright as a reader
/// would use it (Tests/Scripts/read_along.py): ←/→ and Shift+←/→ move by sentence and chapter,
/// Space plays and pauses, Tab reaches the current paragraph's words and Enter narrates from one,
/// a reload offers the remembered position, `?t=` in a pause shows the right chapter and the next
/// word, and resizes keep the marked word in view. After each step the marked word is the one the
/// script's own reading of the sidecar names for the audio's time, and it lies in the viewport.
@Suite(.enabled(if: Playwright.available, "needs Playwright in .python/ (make test-python installs it from PyPI) and Debian's chromium"))
struct ReadAlongKeyboardTests {
    /// Eight chapters of two paragraphs: enough text that the page scrolls, and enough chapters
    /// that the chapter list scrolls in a narrow window.
    static var book: String {
        let things = ["the quiet river", "the old houses", "the baker's warm bread", "a dog asleep by the door", "the children at play"]
        let titles = ["Morning", "The Market", "Rain", "The Bridge", "Evening", "Lanterns", "The Storm", "Home"]
        var text = ""
        for (index, title) in titles.enumerated() {
            let chapter = index + 1
            text += "CHAPTER \(chapter)\n\(title)\n\n"
            for paragraph in 1...2 {
                text += (1...3).map { sentence in
                    let k = chapter * 7 + paragraph * 3 + sentence
                    return "Sentence \(sentence) of paragraph \(paragraph) tells of \(things[k % 5]), and of \(things[(k + 2) % 5])."
                }.joined(separator: " ") + "\n\n"
            }
        }
        return text
    }

    @Test func keysReloadAndResizeKeepTheHighlightedWordTheSidecarsAndInView() throws {
        let ws = try Workspace("readalong-keys")
        try ws.write("book.txt", Self.book)
        let manifest = try ws.write("book.yml", """
            title: Keys
            author: A Tester
            sources:
              - path: book.txt
                chapters: { heading: '^CHAPTER [0-9]+$', subtitle: true }
            voice: { name: en-gb, rate: 0.6 }
            timings: [json, html]
            """)
        _ = try RenderedJob.run(ws, manifest)
        let folder = ws.url.appendingPathComponent("out/book")
        let script = Tool.packageRoot.appendingPathComponent("Tests/Scripts/read_along.py")
        let out = try Tool.run(Playwright.python, [script.path, folder.appendingPathComponent("book.html").path,
                                                   folder.appendingPathComponent("book.timings.json").path, Chromium.path ?? "chromium", "en-gb"],
                               environment: ["PYTHONPATH": Playwright.folder.path])
        try #require(out.status == 0, "read_along.py failed: \(out.stderr)")
        let checks = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]], "\(out.stdout)")
        #expect(checks.count > 60, "the script made \(checks.count) checks")
        for check in checks {
            let name = check["name"] as? String ?? "?", detail = check["detail"] as? String ?? ""
            #expect(check["ok"] as? Bool == true, "\(name): \(detail)")
        }
    }
}
