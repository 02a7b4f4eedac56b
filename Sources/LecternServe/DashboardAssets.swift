/// The dashboard's page, script and style (replaced by the full dashboard).
enum DashboardAssets {
    static let page = """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lectern</title>
        <link rel="stylesheet" href="/dashboard/app.css"></head><body><main><h1>Lectern</h1></main>
        <script src="/dashboard/app.js"></script></body></html>
        """
    static let script = ""
    static let style = ""
}
