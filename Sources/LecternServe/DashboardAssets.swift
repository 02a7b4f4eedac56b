/// The dashboard `lectern serve` answers `/` with: one page (below), its script
/// (`DashboardAssets+Script.swift`) and its style (`DashboardAssets+Style.swift`), all plain
/// HTML, CSS and JavaScript with nothing fetched from elsewhere, under a policy that allows no
/// inline script or style.
///
/// The page holds three views, one shown at a time: signing in with an API token, the books (a
/// form for a new one and the list), and one book (its narration script, voice, runs with
/// progress, the read-along player and its downloads). The address's fragment (`#jobs/12`) names
/// the book shown, so the browser's Back goes back to the list.
enum DashboardAssets {
    static let page = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Lectern</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/dashboard/app.css">
        <script src="/dashboard/app.js" defer></script>
        </head>
        <body>
        <header class="site-header">
          <a class="skip-link" href="#main">Skip to the content</a>
          <p class="brand">Lectern <span class="brand-sub">narration service</span></p>
          <nav aria-label="Account" id="account" hidden>
            <span id="who"></span>
            <button type="button" id="sign-out">Sign out</button>
          </nav>
        </header>
        <main id="main" tabindex="-1">
          <h1 class="visually-hidden">Lectern</h1>
          <p id="loading" role="status">Loading…</p>
          <p id="notice" class="notice" role="status" aria-live="polite"></p>

          <section id="sign-in-view" aria-labelledby="sign-in-heading" hidden>
            <h2 id="sign-in-heading" tabindex="-1">Sign in</h2>
            <form id="sign-in-form" novalidate>
              <div class="field">
                <label for="token">API token</label>
                <p class="hint" id="token-hint">The token you were given, starting with <code>lct_</code>
                  (whoever runs this service makes one with <code>lectern token add</code>).</p>
                <input id="token" name="token" type="password" autocomplete="current-password" spellcheck="false"
                       required aria-describedby="token-hint token-error">
                <p class="error" id="token-error" data-field="token Authorization" aria-live="assertive"></p>
              </div>
              <p class="error" id="sign-in-error" data-field="" aria-live="assertive"></p>
              <button type="submit" class="primary">Sign in</button>
            </form>
          </section>

          <div id="books-view" hidden>
            <section aria-labelledby="new-book-heading" class="panel">
              <h2 id="new-book-heading" tabindex="-1">New book</h2>
              <form id="new-book-form" novalidate>
                <div class="drop-zone" id="drop-zone">
                  <label for="document">Book file <span class="hint-inline">(text, Markdown, HTML, XHTML or EPUB; several files make one book)</span></label>
                  <input id="document" name="document" type="file" multiple required
                         accept=".txt,.text,.md,.markdown,.html,.htm,.xhtml,.epub,text/plain,text/markdown,text/html,application/xhtml+xml,application/epub+zip"
                         aria-describedby="drop-hint chosen document-error">
                  <p class="hint" id="drop-hint">Choose the file with the button, or drop it anywhere in this box.</p>
                  <p id="chosen" class="chosen" aria-live="polite">No file chosen yet.</p>
                  <p class="error" id="document-error" data-field="document manifest body Content-Type" aria-live="assertive"></p>
                </div>
                <div class="field-row">
                  <div class="field">
                    <label for="new-title">Title <span class="hint-inline">(optional: else the book's own)</span></label>
                    <input id="new-title" name="title" type="text" autocomplete="off" aria-describedby="new-title-error">
                    <p class="error" id="new-title-error" data-field="title" aria-live="assertive"></p>
                  </div>
                  <div class="field">
                    <label for="new-author">Author <span class="hint-inline">(optional)</span></label>
                    <input id="new-author" name="author" type="text" autocomplete="off" aria-describedby="new-author-error">
                    <p class="error" id="new-author-error" data-field="author" aria-live="assertive"></p>
                  </div>
                </div>
                <div class="field voice-field">
                  <label for="new-voice">Voice</label>
                  <div class="inline">
                    <select id="new-voice" name="voice" class="voice-select" aria-describedby="new-voice-error"></select>
                    <button type="button" class="hear" data-voice-select="new-voice" data-sample="new-sample">Hear this voice</button>
                  </div>
                  <audio id="new-sample" class="sample" controls preload="none" hidden aria-label="Voice sample"></audio>
                  <p class="error" id="new-voice-error" data-field="voice" aria-live="assertive"></p>
                </div>
                <div class="field">
                  <label for="new-rate">Speed</label>
                  <div class="inline">
                    <input id="new-rate" name="rate" type="range" min="0" max="1" step="0.05" value="0.5"
                           aria-describedby="new-rate-value new-rate-error">
                    <output id="new-rate-value" for="new-rate" class="range-value"></output>
                  </div>
                  <p class="error" id="new-rate-error" data-field="rate" aria-live="assertive"></p>
                </div>
                <p class="error" id="new-book-error" data-field="" aria-live="assertive"></p>
                <progress id="upload-progress" max="1" value="0" aria-label="Upload" hidden></progress>
                <button type="submit" class="primary">Add the book</button>
              </form>
            </section>

            <section aria-labelledby="books-heading" class="panel">
              <h2 id="books-heading" tabindex="-1">Books</h2>
              <p id="books-empty" hidden>No books yet: add one above.</p>
              <ul id="book-list" class="book-list"></ul>
              <p class="error" id="books-error" data-field="" aria-live="assertive"></p>
            </section>
          </div>

          <article id="book-view" aria-labelledby="book-heading" hidden>
            <p><a href="#" id="back-link">All books</a></p>
            <h2 id="book-heading" tabindex="-1"></h2>
            <p id="book-facts" class="facts"></p>
            <p class="error" id="book-error" data-field="" aria-live="assertive"></p>

            <section aria-labelledby="settings-heading" class="panel">
              <h3 id="settings-heading">Voice and title</h3>
              <form id="settings-form" novalidate>
                <div class="field">
                  <label for="edit-title">Title</label>
                  <input id="edit-title" name="title" type="text" autocomplete="off" aria-describedby="edit-title-error">
                  <p class="error" id="edit-title-error" data-field="title" aria-live="assertive"></p>
                </div>
                <div class="field voice-field">
                  <label for="edit-voice">Voice</label>
                  <div class="inline">
                    <select id="edit-voice" name="voice" class="voice-select" aria-describedby="edit-voice-error"></select>
                    <button type="button" class="hear" data-voice-select="edit-voice" data-sample="edit-sample">Hear this voice</button>
                  </div>
                  <audio id="edit-sample" class="sample" controls preload="none" hidden aria-label="Voice sample"></audio>
                  <p class="error" id="edit-voice-error" data-field="voice manifest.voice manifest.voice.name" aria-live="assertive"></p>
                </div>
                <div class="field">
                  <label for="edit-rate">Speed</label>
                  <div class="inline">
                    <input id="edit-rate" name="rate" type="range" min="0" max="1" step="0.05" value="0.5"
                           aria-describedby="edit-rate-value edit-rate-error">
                    <output id="edit-rate-value" for="edit-rate" class="range-value"></output>
                  </div>
                  <p class="error" id="edit-rate-error" data-field="rate" aria-live="assertive"></p>
                </div>
                <p class="error" id="settings-error" data-field="" aria-live="assertive"></p>
                <button type="submit">Save the changes</button>
              </form>
            </section>

            <section aria-labelledby="run-heading" class="panel">
              <h3 id="run-heading">Narration</h3>
              <div class="inline buttons">
                <button type="button" id="start-run" class="primary">Start</button>
                <button type="button" id="cancel-run">Cancel</button>
                <button type="button" id="delete-book" class="danger">Delete this book</button>
              </div>
              <label for="progress" id="progress-label">Progress</label>
              <progress id="progress" max="1" value="0" aria-describedby="progress-text"></progress>
              <p id="progress-text" class="progress-text"></p>
              <p id="run-status" class="visually-hidden" role="status" aria-live="polite"></p>
              <p class="error" id="run-error" data-field="" aria-live="assertive"></p>
            </section>

            <section aria-labelledby="listen-heading" class="panel" id="listen">
              <h3 id="listen-heading">Listen</h3>
              <p id="listen-empty">Nothing to listen to yet: start the narration.</p>
              <div id="player"></div>
              <h4 id="downloads-heading">Downloads</h4>
              <p id="downloads-empty">No files yet.</p>
              <ul id="downloads" class="downloads" aria-labelledby="downloads-heading"></ul>
            </section>

            <section aria-labelledby="script-heading" class="panel" id="script">
              <h3 id="script-heading">Narration script</h3>
              <p class="hint">What will be read, chapter by chapter, and every passage left out with the reason.</p>
              <p id="script-summary" role="status"></p>
              <p class="error" id="script-error" data-field="" aria-live="assertive"></p>
              <div id="script-warnings"></div>
              <div class="inline buttons" id="script-tools" hidden>
                <button type="button" id="expand-all">Open every chapter</button>
                <button type="button" id="collapse-all">Close every chapter</button>
              </div>
              <div id="script-body"></div>
            </section>
          </article>
        </main>
        </body>
        </html>

        """#
}
