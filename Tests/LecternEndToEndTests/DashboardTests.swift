import Foundation
import Testing

/// The dashboard of a real `lectern serve` in headless Chromium, driven by keyboard alone by
/// Playwright (Tests/Scripts/dashboard.py): signing in (a wrong token's error by its field), adding
/// a book with a voice heard first, reading its narration script with the passages left out and
/// their reasons, changing its speed, narrating it while the progress goes to 100 %, playing the
/// read-along player and downloading every output at the size the API reports; axe-core finds no
/// serious or critical violation on any view, and the page logs no error (nothing refused by its
/// content security policy).
@Suite(.enabled(if: Playwright.availableWithAxe,
                "needs Playwright and axe-playwright-python in .python/ (make test-python installs them from PyPI) and Debian's chromium"))
struct DashboardTests {
    /// Two short chapters inside a Project Gutenberg header and footer, which the reader leaves out.
    static let book = """
        The Project Gutenberg eBook of Two Rooms, by A. Tester

        This eBook is for the use of anyone anywhere in the United States and
        most other parts of the world at no cost and with almost no restrictions
        whatsoever.

        Title: Two Rooms

        Author: A. Tester

        *** START OF THE PROJECT GUTENBERG EBOOK TWO ROOMS ***

        CHAPTER I.
        The Kitchen

        The kettle sang on the stove. Mary set out two cups and waited by the window.

        CHAPTER II.
        The Garden

        Rain fell on the roses. Tom came in at last, and they drank their tea together.

        *** END OF THE PROJECT GUTENBERG EBOOK TWO ROOMS ***

        """

    @Test func keyboardAloneAddsNarratesPlaysAndDownloadsABookWithNoSeriousAccessibilityViolation() throws {
        let ws = try Workspace("dashboard")
        let book = try ws.write("two-rooms.txt", Self.book)
        let serve = try ServeProcess(ws)
        defer { _ = serve.terminate() }
        let script = Tool.packageRoot.appendingPathComponent("Tests/Scripts/dashboard.py")
        let out = try Tool.run(Playwright.python, [script.path, serve.base, serve.token, book.path, Chromium.path ?? "chromium"],
                               environment: ["PYTHONPATH": Playwright.folder.path])
        try #require(out.status == 0, "dashboard.py failed: \(out.stderr)\n\(serve.logText)")
        let checks = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]], "\(out.stdout)")
        #expect(checks.count > 40, "the script made \(checks.count) checks: \(checks)")
        for check in checks {
            let name = check["name"] as? String ?? "?", detail = check["detail"] as? String ?? ""
            #expect(check["ok"] as? Bool == true, "\(name): \(detail)")
        }
    }
}
