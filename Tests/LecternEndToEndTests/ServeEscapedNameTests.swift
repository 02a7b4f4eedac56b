import Foundation
import Testing

/// Names with characters a URL escapes reach the files they name: a chapter file `01 - The
/// Kitchen.mp3` at the `url` the job lists (`01%20-%20The%20Kitchen.mp3`), a voice with spaces in
/// its name at its `audition` address (the dashboard uses both as the API gives them); and an
/// escaped `/` inside one segment names nothing.
@Suite struct ServeEscapedNameTests {
    @Test func outputsAndAuditionsAreFoundAtTheEscapedAddressesTheAPIGives() throws {
        let ws = try Workspace("serve-escaped")
        let server = try ServeProcess(ws)
        defer { _ = server.terminate() }
        let book = try ws.write("rooms.txt", """
            CHAPTER I.
            The Kitchen

            The kettle sang on the stove.

            CHAPTER II.
            The Garden

            Rain fell on the roses.

            """)
        let manifest = try ws.write("rooms.yml", "title: Rooms\nsources: [rooms.txt]\nsplit: chapters\n")
        let created = try server.createJob(["manifest=@\(manifest.path)", "document=@\(book.path)"])
        try #require(created.status == 201, "\(created.text)")
        let id = try #require(created.object["id"] as? Int)
        let run = try server.render(job: id)
        try #require(run["state"] as? String == "succeeded", "\(run)")

        let outputs = try #require(try server.request("/api/v1/jobs/\(id)/outputs").json as? [[String: Any]])
        let spaced = outputs.filter { ($0["name"] as? String ?? "").contains(" ") }
        #expect(!spaced.isEmpty, "no output with a space in its name: \(outputs.map { $0["name"] ?? "" })")
        for output in spaced {
            let url = try #require(output["url"] as? String)
            #expect(url.contains("%20"), "\(url)")
            let answer = try server.request(url)
            #expect(answer.status == 200 && answer.body.count == output["size"] as? Int, "\(url): \(answer.status), \(answer.body.count) bytes")
        }
        // A segment whose escapes decode to a `/` is not a path.
        let folder = try #require((spaced.first?["name"] as? String)?.split(separator: "/").first)
        let escapedSlash = "/api/v1/jobs/\(id)/outputs/" + folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "%2F01.mp3"
        #expect(try server.request(escapedSlash, ["--path-as-is"]).status == 404)

        let voices = try #require(try server.request("/api/v1/voices").json as? [[String: Any]])
        let voice = try #require(voices.first { ($0["name"] as? String ?? "").contains(" ") && $0["engine"] as? String == "espeak-ng"
                                                 && ($0["languages"] as? [String] ?? []).contains("en-gb") }, "no voice with a space in its name")
        let audition = try #require(voice["audition"] as? String)
        #expect(audition.contains("%20"), "\(audition)")
        let sample = try server.request(audition)
        #expect(sample.status == 200 && sample.headers["content-type"] == "audio/mpeg" && sample.body.count > 1000,
                "\(audition): \(sample.status) \(sample.text.prefix(200))")
    }
}
