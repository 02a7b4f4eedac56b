import Foundation
import Testing

/// Sixteen simultaneous first requests for one voice's audition: every one gets 200 and the same
/// bytes, and the audition is kept whole (it decodes: audio frames after its tag),
/// and no temporary file stays beside it; a kept audition without audio is made again.
@Suite struct ServeAuditionTests {
    @Test func simultaneousFirstRequestsForOneAuditionAllGetTheSameWholeFile() throws {
        let ws = try Workspace("serve-audition")
        let server = try ServeProcess(ws)
        defer { _ = server.terminate() }
        let voices = try #require(try server.request("/api/v1/voices?language=en").json as? [[String: Any]])
        let voice = try #require(voices.first { $0["engine"] as? String == "espeak-ng" }, "no espeak-ng voice for en")
        let audition = try #require(voice["audition"] as? String)

        // All at once, each its own curl process (not a pool that would send them in turn).
        let answers = (0..<16).map { ws.url.appendingPathComponent("audition-\($0).mp3") }
        let curls = try answers.map { body -> Process in
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            curl.arguments = ["-s", "--noproxy", "*", "--max-time", "120", "-o", body.path, "-w", "%{http_code}",
                              "-H", "Authorization: Bearer \(server.token)", server.base + audition]
            let out = Pipe()
            curl.standardOutput = out
            try curl.run()
            return curl
        }
        var statuses: [String] = []
        for curl in curls {
            let status = String(decoding: (curl.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            curl.waitUntilExit()
            statuses.append(status)
        }
        #expect(statuses.allSatisfy { $0 == "200" }, "\(statuses)\n\(server.logText)")
        let bodies = answers.map { (try? Data(contentsOf: $0)) ?? Data() }
        #expect(Set(bodies).count == 1, "every answer has the same bytes: \(bodies.map(\.count))")

        let folder = server.data.appendingPathComponent("auditions")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(kept.count == 1 && kept.first?.hasSuffix(".mp3") == true, "one audition and no temporary beside it: \(kept)")
        let file = folder.appendingPathComponent(try #require(kept.first))
        #expect(try Data(contentsOf: file) == bodies.first)
        // The kept file decodes: mpg123 reads its frames without an error, and they last about a second or more.
        let decoded = try Tool.run("/usr/bin/mpg123", ["-q", "-t", file.path])
        #expect(decoded.status == 0 && !decoded.stderr.contains("error"), "\(decoded.stderr)")
        let probe = try Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,duration", "-of", "csv=p=0", file.path])
        let fields = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        #expect(fields.first == "mp3" && (Double(fields.last ?? "") ?? 0) > 1, "ffprobe: \(probe.stdout) \(probe.stderr)")

        // A kept audition that is only a tag (as racing renders of earlier versions left) is not
        // served: it is rendered again and replaced whole.
        try Data("ID3".utf8 + [4, 0, 0, 0, 0, 0, 0]).write(to: file)
        let again = try server.request(audition)
        #expect(again.status == 200 && again.body.count > 1000, "\(again.status) \(again.body.count) bytes")
        #expect(try Tool.run("/usr/bin/mpg123", ["-q", "-t", file.path]).status == 0)
        #expect(try Data(contentsOf: file) == again.body)
    }
}
