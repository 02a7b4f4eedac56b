import NIOCore

/// The dashboard `lectern serve` answers `/` with: one page, its script and its style, plain
/// HTML, CSS and JavaScript with nothing fetched from elsewhere, under a policy that allows no
/// inline script or style. They are the files of `Resources/` (dashboard.html, .css, .js),
/// embedded in the binary when it is built (SwiftPM's `embedInCode`, Package.swift), so an
/// installed binary needs nothing beside it.
///
/// - The page holds three views, one shown at a time: signing in with an API token, the books (a
///   form for a new one and the list), and one book (its narration script, voice, runs with
///   progress, the read-along player and its downloads). The address's fragment (`#jobs/12`)
///   names the book shown, so the browser's Back goes back to the list.
/// - The script signs in, lists and adds books, shows one book's narration script, voice, runs
///   (progress from the job's Server-Sent Events), player and downloads. It builds every element
///   with the DOM (text as `textContent`, never as markup), and every request that changes
///   something carries `X-Lectern-Request: 1`.
/// - The style: one column, system fonts, colours with at least 4.5:1 contrast (light and dark),
///   a focus ring on whatever has the keyboard, and no meaning carried by colour alone (a passage
///   left out says so in words, and has a dashed border).
enum DashboardAssets {
    static let page = ByteBuffer(bytes: PackageResources.dashboard_html)
    static let script = ByteBuffer(bytes: PackageResources.dashboard_js)
    static let style = ByteBuffer(bytes: PackageResources.dashboard_css)
}
