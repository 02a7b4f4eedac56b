import Foundation
import LecternTesting

/// Headless Chromium (Debian package `chromium`), for opening generated pages.
enum Chromium {
    /// The browser on PATH (`chromium`, else `chromium-browser`), or nil.
    static let path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }()

    /// Loads each URL in its own headless browser, all at once, and returns the serialized DOM
    /// after the page settled (stdout) and the browser's log (stderr), where a page's console
    /// messages and uncaught errors appear as `…:CONSOLE…] "message", source: URL (line)` lines.
    ///
    /// Each browser gets its own profile folder under `profiles` and at most 30 s.
    static func dumpAll(_ urls: [String], profiles: URL) -> [Result<Tool.Output, TestFailure>] {
        nonisolated(unsafe) var results = [Result<Tool.Output, TestFailure>](repeating: .failure(TestFailure("not run")), count: urls.count)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: urls.count) { i in
            let result: Result<Tool.Output, TestFailure>
            do {
                let output = try Tool.run("/usr/bin/timeout", ["30", path ?? "chromium",
                    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                    "--user-data-dir=\(profiles.appendingPathComponent("chromium-profile-\(i)").path)",
                    "--autoplay-policy=no-user-gesture-required", "--virtual-time-budget=5000",
                    "--enable-logging=stderr", "--v=0", "--dump-dom", urls[i]])
                result = output.status == 0 ? .success(output)
                    : .failure(TestFailure("chromium exited with \(output.status) on \(urls[i]): \(output.stderr)"))
            } catch {
                result = .failure(TestFailure("could not run chromium: \(error)"))
            }
            lock.lock()
            results[i] = result
            lock.unlock()
        }
        return results
    }
}

/// Chromium's `--dump-dom` output, read just enough to find elements by id and class and take
/// their text (scripts are left out: their text is not markup).
struct DumpedDOM {
    struct Element: Equatable {
        var tag: String
        var attributes: [String: String]
        /// Where the opening tag starts and ends in ``DumpedDOM/html``.
        var start: String.Index
        var contentStart: String.Index
        var id: String? { attributes["id"] }
        var classes: [Substring] { (attributes["class"] ?? "").split(separator: " ") }
    }

    let html: String
    let elements: [Element]

    init(_ dump: String) {
        var html = dump
        while let open = html.range(of: "<script"), let close = html.range(of: "</script>", range: open.upperBound..<html.endIndex) {
            html.removeSubrange(open.lowerBound..<close.upperBound)
        }
        self.html = html
        let tag = try! Regex(#"<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*/?>"#)
        let attribute = try! Regex(#"([^\s=>/]+)(?:="([^"]*)")?"#)
        elements = html.matches(of: tag).map { match in
            var attributes: [String: String] = [:]
            for pair in String(match.output[2].substring ?? "").matches(of: attribute) {
                let name = String(pair.output[1].substring ?? "")
                attributes[name] = DumpedDOM.unescape(String(pair.output[2].substring ?? ""))
            }
            return Element(tag: String(match.output[1].substring ?? "").lowercased(), attributes: attributes,
                           start: match.range.lowerBound, contentStart: match.range.upperBound)
        }
    }

    func element(id: String) -> Element? { elements.first { $0.id == id } }
    func elements(withClass name: String) -> [Element] { elements.filter { $0.classes.contains(Substring(name)) } }

    /// Where the element's content ends: before its matching closing tag.
    func contentEnd(of element: Element) -> String.Index {
        var depth = 1
        var position = element.contentStart
        while let next = html.range(of: "<", range: position..<html.endIndex) {
            let rest = html[next.upperBound...]
            if rest.hasPrefix("/" + element.tag + ">") {
                depth -= 1
                if depth == 0 { return next.lowerBound }
            } else if rest.hasPrefix(element.tag + " ") || rest.hasPrefix(element.tag + ">") {
                depth += 1
            }
            position = next.upperBound
        }
        return html.endIndex
    }

    /// The element's text as the DOM's `textContent` gives it.
    func textContent(of element: Element) -> String {
        let inner = html[element.contentStart..<contentEnd(of: element)]
        return DumpedDOM.unescape(inner.replacingOccurrences(of: #"<[^>]*>"#, with: "", options: .regularExpression))
    }

    func contains(_ inner: Element, within outer: Element) -> Bool {
        inner.start > outer.start && inner.start < contentEnd(of: outer)
    }

    /// Undoes the escaping of Chromium's serializer (text: `&amp;`, `&lt;`, `&gt;`, `&nbsp;`;
    /// attributes also `&quot;`).
    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&nbsp;", with: "\u{a0}")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
