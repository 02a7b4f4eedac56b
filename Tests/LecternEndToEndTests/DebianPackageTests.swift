import Foundation
import Testing
import LecternTestSupport

/// `make deb`'s package installs and runs where no Swift toolchain is: a Debian 12 root made with
/// debootstrap (minbase and the package's own dependencies, nothing else), the package installed
/// by dpkg (which refuses it if a dependency is missing), then `lectern say` and a two-chapter
/// job run inside the root with `chroot`. The job names a voice preset, found only in the
/// package's `/usr/share/lectern/Config` (beside the binary, `../share/lectern/Config`).
struct DebianPackageTests {
    @Test func thePackageRunsInABareDebianRoot() throws {
        guard let binary = ProcessInfo.processInfo.environment["LECTERN_STATIC_BIN"], !binary.isEmpty else {
            print("skipped: LECTERN_STATIC_BIN names no statically linked lectern (make test builds one)"); return
        }
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/debootstrap") else {
            print("skipped: building a Debian root needs root and debootstrap (make test-deps installs it)"); return
        }
        let ws = try Workspace("deb")
        let made = try Tool.run(Tool.packageRoot.appendingPathComponent("Scripts/make-deb.sh").path,
                                [binary, ws.url.appendingPathComponent("out").path])
        #expect(made.status == 0, "make-deb failed: \(made.stderr)")
        let deb = URL(fileURLWithPath: made.stdout.trimmingCharacters(in: .whitespacesAndNewlines))

        // The Swift runtime is inside the binary: nothing of the toolchain is linked.
        let ldd = try Tool.run("/usr/bin/ldd", [binary])
        #expect(!ldd.stdout.contains("libswift") && !ldd.stdout.contains("libFoundation") && !ldd.stdout.contains("/opt/swift"),
                "the binary links the toolchain: \(ldd.stdout)")
        let fields = try Tool.run("/usr/bin/dpkg-deb", ["--field", deb.path, "Depends"]).stdout
        let depends = fields.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        #expect(depends.contains("libespeak-ng1") && depends.contains("libmp3lame0") && depends.contains("libebur128-1"), "Depends: \(depends)")
        let contents = try Tool.run("/usr/bin/dpkg-deb", ["--contents", deb.path]).stdout
        for path in ["./usr/bin/lectern", "./usr/share/lectern/Config/defaults.yml", "./usr/share/lectern/Config/voices.yml",
                     "./usr/share/man/man1/lectern.1.gz"] {
            #expect(contents.contains(path), "the package has no \(path)")
        }

        let root = try DebianRoot.prepared(with: depends)
        // The root is kept between runs (built once): a package a run left there is replaced.
        let copy = root.url.appendingPathComponent("tmp/lectern.deb")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: deb, to: copy)
        let installed = try root.run(["dpkg", "-i", "/tmp/lectern.deb"])
        #expect(installed.status == 0, "dpkg -i failed: \(installed.stdout) \(installed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.url.appendingPathComponent("opt/swift").path))

        let job = root.url.appendingPathComponent("job")
        try? FileManager.default.removeItem(at: job)
        try FileManager.default.createDirectory(at: job, withIntermediateDirectories: true)
        try """
            CHAPTER I. The Start

            It was a bright cold day in April, and the clocks were striking thirteen.

            CHAPTER II. The End

            The sky was clear, and the road ran on to the sea.
            """.write(to: job.appendingPathComponent("book.txt"), atomically: true, encoding: .utf8)
        try """
            title: Two chapters
            sources:
              - path: book.txt
            voice: { preset: narrator-uk }
            """.write(to: job.appendingPathComponent("book.yml"), atomically: true, encoding: .utf8)

        let said = try root.run(["lectern", "say", "Hello from a Debian root.", "-o", "/job/hello.mp3"])
        #expect(said.status == 0, "say failed: \(said.stderr)")
        let hello = try Tool.probe(job.appendingPathComponent("hello.mp3"), ["-show_format"])
        let helloSeconds = Double((hello["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        #expect(helloSeconds > 1, "say wrote \(helloSeconds) s")

        let ran = try root.run(["lectern", "run", "--quiet", "/job/book.yml"])
        #expect(ran.status == 0, "run failed: \(ran.stderr)")
        let mp3 = try #require(FileManager.default.enumerator(at: job, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.first { $0.pathExtension == "mp3" && $0.lastPathComponent != "hello.mp3" })
        let probe = try Tool.probe(mp3, ["-show_chapters"])
        let chapters = (probe["chapters"] as? [[String: Any]]) ?? []
        #expect(chapters.count == 2, "\(chapters.count) chapters in \(mp3.lastPathComponent)")

        // A preset the package's Config lacks: the error says where Config was looked for.
        try """
            sources: [book.txt]
            voice: { preset: no-such-voice }
            """.write(to: job.appendingPathComponent("bad.yml"), atomically: true, encoding: .utf8)
        let bad = try root.run(["lectern", "check", "/job/bad.yml"])
        #expect(bad.status != 0 && bad.stderr.contains("no-such-voice") && bad.stderr.contains("/usr/share/lectern/Config"),
                "\(bad.status): \(bad.stderr)")
    }
}
