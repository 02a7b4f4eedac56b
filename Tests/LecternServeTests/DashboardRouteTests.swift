import Foundation
import Testing
@testable import LecternServe

/// The dashboard's page, script and style answered from the bytes compiled into the binary:
/// exactly the files of `Sources/LecternServe/Resources/`, under the strict policy.
@Suite struct DashboardRouteTests {
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/LecternServe/Resources")

    @Test(arguments: [
        ("/", "dashboard.html", "text/html; charset=utf-8"),
        ("/dashboard/app.js", "dashboard.js", "text/javascript; charset=utf-8"),
        ("/dashboard/app.css", "dashboard.css", "text/css; charset=utf-8"),
    ])
    func servesTheResourceFiles(path: String, file: String, type: String) async throws {
        let expected = try Data(contentsOf: Self.resources.appendingPathComponent(file))
        try await InProcessService("dashboard").test { client in
            let answer = try await client.send(path, token: "")
            #expect(answer.status == 200)
            #expect(answer.body == expected, "\(path) is not \(file) as it is in Resources/")
            #expect(answer.headers[.contentType] == type)
            #expect(answer.headers[.cacheControl] == "no-cache")
            #expect(answer.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            #expect(answer.headers[.init("X-Content-Type-Options")!] == "nosniff")
        }
    }
}
