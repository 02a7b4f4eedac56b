import Hummingbird

/// The dashboard: one page and its script and style, served from memory (``DashboardAssets``).
extension LecternService {
    func addDashboardRoutes(to router: Router<ServeContext>) {
        router.get("/") { _, _ in Self.asset(DashboardAssets.page, type: "text/html; charset=utf-8") }
        router.get("dashboard/app.js") { _, _ in Self.asset(DashboardAssets.script, type: "text/javascript; charset=utf-8") }
        router.get("dashboard/app.css") { _, _ in Self.asset(DashboardAssets.style, type: "text/css; charset=utf-8") }
    }

    static func asset(_ bytes: ByteBuffer, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache",
                                        .contentSecurityPolicy: "default-src 'self'; media-src 'self' blob:; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'self'"],
                 body: .init(byteBuffer: bytes))
    }
}
