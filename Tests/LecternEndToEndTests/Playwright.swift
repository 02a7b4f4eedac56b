import Foundation

/// Playwright from PyPI, installed by `make test` (`make test-python`) into `.python/` of the
/// clone, driving Debian's Chromium; and axe-core for it (axe-playwright-python), for the
/// accessibility scans.
enum Playwright {
    static let folder = Tool.packageRoot.appendingPathComponent(".python")
    static let python = "/usr/bin/python3"

    static let available: Bool = imports("playwright.sync_api")

    /// Playwright with axe-core.
    static let availableWithAxe: Bool = available && imports("axe_playwright_python.sync_playwright")

    /// Whether Chromium is installed and the Python of `.python/` imports `module`.
    static func imports(_ module: String) -> Bool {
        guard Chromium.path != nil, let out = try? Tool.run(python, ["-c", "import \(module)"], environment: ["PYTHONPATH": folder.path])
        else { return false }
        return out.status == 0
    }
}
