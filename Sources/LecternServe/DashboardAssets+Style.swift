extension DashboardAssets {
    /// The dashboard's style: one column, system fonts, colours with at least 4.5:1 contrast
    /// (light and dark), a focus ring on whatever has the keyboard, and no meaning carried by
    /// colour alone (a passage left out says so in words, and has a dashed border).
    static let style = #"""
        :root {
          color-scheme: light dark;
          --bg: #f6f5f2; --panel: #ffffff; --text: #1d1d1b; --muted: #4f4f4a; --line: #c9c6bd;
          --accent: #14507a; --accent-text: #ffffff; --focus: #b3400a; --error: #a11b12; --skip-bg: #fbf3df;
          --danger: #8f1d14;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #16181b; --panel: #1f2226; --text: #ecebe6; --muted: #b9b7ae; --line: #4a4e55;
            --accent: #8cc4ee; --accent-text: #0f1a24; --focus: #ffb067; --error: #ff9b8f; --skip-bg: #2e2818;
            --danger: #ff9b8f;
          }
        }
        *, *::before, *::after { box-sizing: border-box; }
        [hidden] { display: none !important; }
        html { font-size: 100%; }
        body {
          margin: 0; background: var(--bg); color: var(--text);
          font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
        }
        a { color: var(--accent); text-underline-offset: 0.15em; }
        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        main:focus, h2:focus, h3:focus { outline: none; }
        h2:focus-visible { outline: 3px solid var(--focus); }
        code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.95em; }
        .visually-hidden {
          position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
          clip: rect(0 0 0 0); white-space: nowrap; border: 0;
        }
        .skip-link { position: absolute; left: 0.5rem; top: -3rem; background: var(--panel); padding: 0.5rem 0.75rem; z-index: 10; }
        .skip-link:focus { top: 0.5rem; }

        .site-header {
          display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem 1rem;
          padding: 0.75rem max(1rem, calc((100% - 60rem) / 2)); background: var(--panel); border-bottom: 1px solid var(--line);
        }
        .brand { margin: 0; font-weight: 700; font-size: 1.25rem; }
        .brand-sub { font-weight: 400; font-size: 0.9rem; color: var(--muted); }
        #account { display: flex; align-items: center; gap: 0.75rem; }
        main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
        h2 { font-size: 1.5rem; margin: 0.5rem 0 1rem; }
        h3 { font-size: 1.2rem; margin: 0 0 0.75rem; }
        h4 { font-size: 1.05rem; margin: 1rem 0 0.5rem; }
        .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 1rem 1.25rem; margin: 0 0 1.25rem; }
        /* Empty live regions stay in the page (a region shown only when filled is often not read out). */
        .notice:empty { margin: 0; padding: 0; border: 0; }
        .error:empty { margin: 0; }
        .error:empty::before { content: none; }
        .notice { margin: 0 0 1rem; padding: 0.5rem 0.75rem; border-left: 4px solid var(--accent); background: var(--panel); }
        .hint, .hint-inline, .facts, .book-facts, .download-facts, .chapter-facts { color: var(--muted); }
        .hint { margin: 0.25rem 0; font-size: 0.95rem; }
        .hint-inline { font-weight: 400; font-size: 0.9rem; }
        .error { color: var(--error); font-weight: 600; margin: 0.25rem 0; }
        .error::before { content: "Error: "; }

        form { display: grid; gap: 0.75rem; grid-template-columns: minmax(0, 1fr); }
        .field { display: grid; gap: 0.25rem; grid-template-columns: minmax(0, 1fr); }
        .field-row { display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); }
        label { font-weight: 600; }
        input[type=text], input[type=password], select {
          font: inherit; color: var(--text); background: var(--panel); border: 1px solid var(--muted); border-radius: 4px;
          padding: 0.4rem 0.5rem; min-height: 2.5rem; width: 100%; min-width: 0;
        }
        .field, .field-row > *, .drop-zone { min-width: 0; }
        input[aria-invalid=true], select[aria-invalid=true] { border: 2px solid var(--error); }
        input[type=range] { width: min(20rem, 100%); accent-color: var(--accent); }
        .range-value { font-variant-numeric: tabular-nums; }
        .inline { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
        .inline > .voice-select { flex: 1 1 16rem; width: auto; }
        button, input::file-selector-button {
          font: inherit; color: var(--text); background: var(--panel); border: 1px solid var(--muted); border-radius: 4px;
          padding: 0.4rem 0.9rem; min-height: 2.5rem; cursor: pointer;
        }
        button.primary { background: var(--accent); color: var(--accent-text); border-color: var(--accent); font-weight: 600; }
        button.danger { color: var(--danger); border-color: var(--danger); }
        button[aria-disabled=true] { opacity: 0.6; cursor: not-allowed; text-decoration: line-through; }
        button[aria-busy=true] { cursor: progress; }
        form > button[type=submit] { justify-self: start; }
        .sample { display: block; margin-top: 0.5rem; width: min(24rem, 100%); }

        .drop-zone {
          display: grid; grid-template-columns: minmax(0, 1fr); gap: 0.35rem; padding: 1rem;
          border: 2px dashed var(--muted); border-radius: 6px; background: var(--bg);
        }
        .drop-zone:focus-within { outline: 3px solid var(--focus); outline-offset: 2px; }
        .drop-zone.dragging { border-style: solid; border-color: var(--accent); }
        .drop-zone.dragging::after { content: "Drop the file to choose it."; font-weight: 600; }
        .drop-zone input[type=file] { font: inherit; color: var(--text); max-width: 100%; }
        #book-heading, .book-title, .download { overflow-wrap: anywhere; }
        .chosen { margin: 0; }

        .book-list { list-style: none; margin: 0; padding: 0; }
        .book { padding: 0.5rem 0; border-bottom: 1px solid var(--line); }
        .book:last-child { border-bottom: 0; }
        .book-title { font-weight: 600; }

        .buttons { margin-bottom: 0.75rem; }
        #progress-label { display: block; }
        progress { width: 100%; height: 1.25rem; accent-color: var(--accent); }
        .progress-text { margin: 0.25rem 0; font-variant-numeric: tabular-nums; }
        .player-frame { width: 100%; height: 32rem; border: 1px solid var(--line); border-radius: 4px; background: #ffffff; }
        .downloads { padding-left: 1.25rem; }
        .downloads li { margin: 0.2rem 0; }

        .chapter { border-top: 1px solid var(--line); padding: 0.25rem 0; }
        .chapter > summary { cursor: pointer; padding: 0.25rem 0; }
        .chapter > summary > .chapter-title { display: inline; margin: 0; }
        .chapter-facts { margin-left: 0.5rem; font-size: 0.9rem; }
        .chapter-facts::before { content: "("; }
        .chapter-facts::after { content: ")"; }
        .unplaced > .chapter-title { margin-top: 0.25rem; }
        .line { margin: 0.4rem 0; max-width: 45rem; }
        .line-heading { font-size: 1.05rem; }
        .line-quote { padding-left: 0.75rem; border-left: 3px solid var(--line); }
        .line-stageDirection { font-style: italic; }
        .tag { color: var(--muted); font-size: 0.9rem; }
        .passages { margin: 0 0 0.5rem; padding-left: 1.5rem; list-style: none; color: var(--muted); }
        .skipped { margin: 0.5rem 0; padding: 0.35rem 0.75rem; border: 2px dashed var(--muted); border-radius: 4px; background: var(--skip-bg); }
        .skipped > summary { cursor: pointer; }
        .skipped-mark { font-weight: 700; text-transform: uppercase; letter-spacing: 0.03em; font-size: 0.9rem; }
        .skipped-reason { font-weight: 600; }
        .skipped-text { margin: 0.5rem 0 0.25rem; color: var(--muted); white-space: pre-wrap; }
        .warnings { color: var(--text); }
        @media (prefers-reduced-motion: no-preference) { html { scroll-behavior: smooth; } }

        """#
}
