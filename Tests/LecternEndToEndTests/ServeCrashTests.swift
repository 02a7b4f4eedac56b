import Foundation
import Testing

/// `lectern serve` killed (SIGKILL) while an upload arrives: started again on the same data
/// folder and store, it shows no job, has no job folder, and the partial upload lies only in
/// `staging/`; a stopped server (SIGTERM) with a run under way records the run as cancelled.
struct ServeCrashTests {
    @Test func killedDuringAnUploadLeavesNoJob() throws {
        let ws = try Workspace("serve-kill-upload")
        let server = try ServeProcess(ws)
        let big = ws.url.appendingPathComponent("big.txt")
        try Data(String(repeating: "A line of a long book that is still arriving. ", count: 40_000).utf8).write(to: big)
        let upload = Process()
        upload.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        upload.arguments = ["-s", "--noproxy", "*", "--limit-rate", "100k", "-H", "Authorization: Bearer \(server.token)",
                            "-F", "document=@\(big.path)", server.base + "/api/v1/jobs"]
        upload.standardOutput = FileHandle.nullDevice
        upload.standardError = FileHandle.nullDevice
        try upload.run()
        defer { if upload.isRunning { upload.terminate() } }
        let staging = server.data.appendingPathComponent("staging")
        func received() -> Int {
            let files = FileManager.default.enumerator(at: staging, includingPropertiesForKeys: [.fileSizeKey])?.allObjects as? [URL] ?? []
            return files.reduce(0) { $0 + ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
        }
        #expect(eventually(timeout: 30, "part of the upload in staging/") { received() > 100_000 })
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
        upload.waitUntilExit()

        let again = try ServeProcess(ws, name: "again")
        #expect((try again.request("/api/v1/jobs").json as? [Any])?.isEmpty == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: again.data.appendingPathComponent("jobs").path).isEmpty)
        #expect(received() > 0, "the partial upload stays in staging/ until it has been idle ten minutes")
        #expect(again.terminate().status == 0)
    }
}
