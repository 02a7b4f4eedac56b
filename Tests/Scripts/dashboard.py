"""Drives the dashboard of a running `lectern serve` in headless Chromium with Playwright, by
keyboard alone (Tab, Shift+Tab, Enter, Space, arrow keys and typing; never a mouse click), the way
a person who cannot use a mouse would, and scans each view with axe-core.

    dashboard.py BASE_URL TOKEN BOOK.txt CHROMIUM

(With DASHBOARD_SCREENSHOTS=FOLDER it also saves a screenshot of each view it scans there.)

It signs in (first with a wrong token, whose error must show by the field), adds BOOK.txt as a new
book with a title, an author, a voice it hears first and a speed, reads the narration script (every
passage the service's script leaves out is shown with its reason), changes the speed of the book,
starts the narration and watches the progress reach 100 %, plays the read-along player, downloads
every output, and goes back to the list. What the page shows is compared with what the API answers
(through the browser's own signed-in request context). axe-core runs on each view; a serious or
critical violation fails its check.

It prints one JSON list of checks, `[{"name": …, "ok": true|false, "detail": …}, …]`, and exits 0
(a failed check is a result, not an error); it exits 2 when Playwright or axe-playwright-python
cannot be imported.
"""
import json
import os
import sys
import time

try:
    from playwright.sync_api import sync_playwright
    from axe_playwright_python.sync_playwright import Axe
except ImportError as error:  # the Swift test skips with this message
    print(f"playwright or axe-playwright-python is not installed: {error}", file=sys.stderr)
    sys.exit(2)

base, token, book_path, chromium = sys.argv[1:5]
checks = []


class Stop(Exception):
    """A step the rest depends on failed: the checks so far are the result."""


def check(name, ok, detail=""):
    checks.append({"name": name, "ok": bool(ok), "detail": str(detail)})
    return ok


def require(name, ok, detail=""):
    if not check(name, ok, detail):
        raise Stop(name)


def focused(page, selector):
    return page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)", selector)


def describe_focus(page):
    return page.evaluate("""() => { const e = document.activeElement; if (!e) return 'nothing';
        return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + (e.textContent || e.value || '').trim().slice(0, 40); }""")


def tab_to(page, selector, name, backwards=False, limit=120):
    """Presses Tab (Shift+Tab) until the element matching selector has the focus."""
    key = "Shift+Tab" if backwards else "Tab"
    for presses in range(limit + 1):
        if focused(page, selector):
            return presses
        page.keyboard.press(key)
    require(f"{key} reaches {name}", False, f"after {limit} presses the focus is on {describe_focus(page)}")


axe = Axe()


def scan(page, view, frame=None):
    """axe-core on the page (or a frame of it); serious and critical violations fail."""
    target = frame or page
    if SHOTS and not frame:
        page.screenshot(path=os.path.join(SHOTS, f"{len(checks):02d}.png"), full_page=True)
    results = axe.run(target, options={"resultTypes": ["violations"], "iframes": False})
    violations = results.response.get("violations", [])

    def text(v):
        nodes = "; ".join(" ".join(map(str, n.get("target", []))) + ": " + n.get("failureSummary", "").replace("\n", " ")
                          for n in v.get("nodes", [])[:5])
        return f"{v['id']} ({v['impact']}): {v['help']} [{nodes}]"

    bad = [text(v) for v in violations if v.get("impact") in ("serious", "critical")]
    minor = [text(v) for v in violations if v.get("impact") not in ("serious", "critical")]
    check(f"axe-core on {view}: no serious or critical violation", not bad,
          " | ".join(bad) or ("minor: " + " | ".join(minor) if minor else "no violation"))


SHOTS = os.environ.get("DASHBOARD_SCREENSHOTS")  # a folder: a screenshot of each view scanned, to look at


def visible(page, selector, timeout=20000):
    page.wait_for_selector(selector, state="visible", timeout=timeout)


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"])
    context = browser.new_context(viewport={"width": 1100, "height": 900}, accept_downloads=True)
    page = context.new_page()
    console, refused = [], []
    # A refused request is logged as "Failed to load resource": those are counted by their answers.
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}")
            if message.type in ("error", "warning") and not message.text.startswith("Failed to load resource") else None)
    page.on("response", lambda response: refused.append(f"{response.request.method} {response.url.removeprefix(base)} {response.status}")
            if response.status >= 400 else None)
    page.on("pageerror", lambda error: console.append(f"error: {error}"))
    api = context.request  # shares the page's cookies: the signed-in session
    # Intercepting file choosers is turned on here, well before a key opens one: turned on at the
    # key press (expect_file_chooser) it may come too late, and the chooser opens unseen.
    choosers = []
    page.on("filechooser", lambda chooser: choosers.append(chooser))
    started = time.monotonic()
    try:
        # Sign in: a wrong token first (its error by the field), then the right one.
        page.goto(base + "/")
        visible(page, "#sign-in-view")
        check("the page's title says where one is", page.title() == "Sign in — Lectern", page.title())
        scan(page, "the sign-in view")
        tab_to(page, "#token", "the token field")
        page.keyboard.type("lct_" + "0" * 40)
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.getElementById('token-error').textContent.trim() !== ''", timeout=10000)
        error = page.evaluate("""() => ({ text: document.getElementById('token-error').textContent,
            invalid: document.getElementById('token').getAttribute('aria-invalid'),
            live: document.getElementById('token-error').getAttribute('aria-live'),
            described: document.getElementById('token').getAttribute('aria-describedby') })""")
        check("a wrong token's error shows by the field, in a live region, and marks the field",
              "not valid" in error["text"] and error["invalid"] == "true" and error["live"] and "token-error" in error["described"], error)
        check("the focus stays on the token field to correct it", focused(page, "#token"), describe_focus(page))
        page.keyboard.press("Control+a")
        page.keyboard.type(token)
        page.keyboard.press("Enter")
        visible(page, "#books-view")
        me = api.get(base + "/api/v1/me")
        require("signing in sets the session cookie the API accepts", me.status == 200, me.status)
        check("the account shows who is signed in", me.json()["owner"] in page.inner_text("#who"), page.inner_text("#who"))
        check("after signing in the focus is on the view's first heading", focused(page, "#new-book-heading"), describe_focus(page))
        scan(page, "the books view (no book yet)")

        # “Add the book” with no file: the error by the file input, which gets the focus.
        tab_to(page, "#new-book-form button[type=submit]", "“Add the book”")
        page.keyboard.press("Enter")
        error = page.evaluate("""() => ({ text: document.getElementById('document-error').textContent,
            invalid: document.getElementById('document').getAttribute('aria-invalid') })""")
        check("adding a book with no file says so by the file input, and focuses it", error["text"] != "" and error["invalid"] == "true"
              and focused(page, "#document"), f"{error}; focus {describe_focus(page)}")

        # A file dropped on the drop zone is chosen (a drop is no key press: this one event is
        # dispatched, as a drag from the desktop would end), then replaced by one chosen by keyboard.
        dropped = page.evaluate_handle("""() => { const d = new DataTransfer();
            d.items.add(new File(['Dropped.'], 'dropped.txt', { type: 'text/plain' })); return d; }""")
        page.dispatch_event("#drop-zone", "drop", {"dataTransfer": dropped})
        check("a file dropped on the drop zone is chosen, and the error is gone",
              page.eval_on_selector("#document", "i => [...i.files].map(f => f.name)") == ["dropped.txt"]
              and "dropped.txt" in page.inner_text("#chosen") and page.inner_text("#document-error") == "", page.inner_text("#chosen"))

        # A new book: the file through the drop zone's file input, by keyboard.
        tab_to(page, "#document", "the drop zone's file input")
        page.keyboard.press("Space")
        deadline = time.monotonic() + 5
        while not choosers and time.monotonic() < deadline:
            page.wait_for_timeout(50)  # lets Playwright deliver the event; the loop waits for it, not for a time
        require("Space on the file input opens the file chooser", choosers, "no file chooser opened")
        choosers[0].set_files(book_path)
        name = os.path.basename(book_path)
        page.wait_for_function("(n) => document.getElementById('chosen').textContent.includes(n)", arg=name, timeout=15000)
        check("the drop zone names the chosen file", name in page.inner_text("#chosen") and "dropped" not in page.inner_text("#chosen"),
              page.inner_text("#chosen"))
        page.keyboard.press("Tab")
        require("Tab goes from the file to the title", focused(page, "#new-title"), describe_focus(page))
        page.keyboard.type("Two Rooms")
        page.keyboard.press("Tab")
        page.keyboard.type("A. Tester")
        voices = api.get(base + "/api/v1/voices").json()
        target = next((v for v in voices if v["engine"] == "espeak-ng" and "en-gb" in v["languages"]), None)
        require("the service lists an en-gb espeak-ng voice", target, [v["name"] for v in voices][:20])
        tab_to(page, "#new-voice", "the voice list")
        for _ in range(len(voices) + 2):
            if page.eval_on_selector("#new-voice", "s => s.value") == target["name"]:
                break
            page.keyboard.press("ArrowDown")
        chosen_voice = page.eval_on_selector("#new-voice", "s => s.value")
        require(f"the arrow keys choose the voice {target['name']}", chosen_voice == target["name"], chosen_voice)
        page.keyboard.press("Tab")
        require("Tab goes from the voice list to its “Hear this voice”", focused(page, "button.hear[data-voice-select=new-voice]"), describe_focus(page))
        page.keyboard.press("Enter")
        try:
            page.wait_for_function("""(v) => { const a = document.getElementById('new-sample');
                return !a.hidden && a.dataset.voice === v && a.readyState >= 2 && a.duration > 0; }""", arg=target["name"], timeout=30000)
            sample = page.eval_on_selector("#new-sample", "a => ({ duration: a.duration, ready: a.readyState, src: a.src.slice(0, 5) })")
            check("“Hear this voice” loads the voice's audition into a visible player", sample["duration"] > 1, sample)
        except Exception as failure:
            check("“Hear this voice” loads the voice's audition into a visible player", False,
                  f"{failure}; errors: {page.inner_text('#new-voice-error')}")
        tab_to(page, "#new-rate", "the speed slider")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        rate = page.eval_on_selector("#new-rate", "r => r.value")
        check("the arrow keys set the speed, and the page says it", rate == "0.6" and "0.60" in page.inner_text("#new-rate-value"),
              f"{rate}: {page.inner_text('#new-rate-value')}")
        tab_to(page, "#new-book-form button[type=submit]", "“Add the book”")
        page.keyboard.press("Enter")
        visible(page, "#book-view")
        page.wait_for_function("() => /^#jobs\\/[0-9]+$/.test(location.hash)", timeout=10000)
        job_id = int(page.evaluate("() => location.hash.split('/')[1]"))
        job = api.get(f"{base}/api/v1/jobs/{job_id}").json()
        check("the book has the title, author, voice and speed given", job["title"] == "Two Rooms" and "A. Tester" in job["manifest"]
              and target["name"] in job["manifest"] and "0.6" in job["manifest"], job["manifest"])
        check("the book's view heads with its title, and has the focus", page.inner_text("#book-heading") == "Two Rooms"
              and focused(page, "#book-heading"), f"{page.inner_text('#book-heading')}; focus {describe_focus(page)}")

        # The narration script: every passage left out, with its reason, as the API's script says.
        page.wait_for_selector("#script-body details.chapter", state="attached", timeout=30000)
        script = api.get(f"{base}/api/v1/jobs/{job_id}/script").json()
        skipped = script["unplaced"] + [line for chapter in script["chapters"] for line in chapter["lines"] if line["kind"] == "skipped"]
        require("the sample book has a passage the script leaves out", skipped, script)
        shown = page.eval_on_selector_all(".skipped", """ds => ds.map(d => ({ reason: d.querySelector('.skipped-reason').textContent,
            mark: d.querySelector('.skipped-mark').textContent, visible: d.querySelector('summary').getBoundingClientRect().height > 0 }))""")
        check("every passage left out is shown, marked in words, with its reason",
              sorted(s["reason"] for s in shown) == sorted(line["reason"] for line in skipped)
              and all(s["visible"] and s["mark"] == "Not read" for s in shown), f"shown {shown}, script {[l['reason'] for l in skipped]}")
        chapters = page.eval_on_selector_all("#script-body details.chapter .chapter-title", "hs => hs.map(h => h.textContent)")
        check("each chapter of the script is shown", len(chapters) == len(script["chapters"])
              and all(c["title"] in shown_title for c, shown_title in zip(script["chapters"], chapters)), chapters)
        tab_to(page, ".skipped > summary", "a passage left out")
        page.keyboard.press("Enter")
        opened = page.evaluate("() => { const d = document.activeElement.parentElement; return { open: d.open, text: d.querySelector('.skipped-text').innerText }; }")
        first = skipped[0]
        check("Enter opens a passage left out and shows its text", opened["open"] and opened["text"] == first["text"], opened)
        tab_to(page, "details.chapter > summary", "a chapter of the script")
        was_open = page.evaluate("() => document.activeElement.parentElement.open")
        page.keyboard.press("Enter")
        now_open = page.evaluate("() => document.activeElement.parentElement.open")
        check("Enter opens and closes a chapter of the script", was_open != now_open, f"{was_open} → {now_open}")
        page.keyboard.press("Enter")
        scan(page, "the book view with its narration script")

        # A change of speed for the book (PATCH), from its own form.
        tab_to(page, "#edit-rate", "the book's speed slider", backwards=True)
        page.keyboard.press("ArrowLeft")
        tab_to(page, "#settings-form button[type=submit]", "“Save the changes”")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.getElementById('notice').textContent.startsWith('Saved')", timeout=10000)
        manifest = api.get(f"{base}/api/v1/jobs/{job_id}").json()["manifest"]
        check("saving the book's speed changes its manifest", "0.55" in manifest, manifest)

        # The narration, watched to its end.
        page.evaluate("""() => { const t = document.getElementById('progress-text'), p = document.getElementById('progress');
            window.seenProgress = [[t.textContent, p.value]];
            new MutationObserver(() => window.seenProgress.push([t.textContent, p.value]))
              .observe(t, { childList: true, characterData: true, subtree: true }); }""")
        tab_to(page, "#start-run", "“Start”")
        page.keyboard.press("Enter")
        try:
            page.wait_for_function("""() => document.getElementById('progress').value === 1
                && document.getElementById('progress-text').textContent.startsWith('100 %')""", timeout=60000)
        except Exception as failure:
            require("the progress reaches 100 %", False, f"{failure}: {page.inner_text('#progress-text')} {page.inner_text('#run-error')}")
        run = api.get(f"{base}/api/v1/jobs/{job_id}").json()["latestRun"]
        seen = page.evaluate("() => window.seenProgress")
        final = seen[-1][0]
        check("the progress reaches 100 % with every word", run["state"] == "succeeded"
              and f"{run['wordCount']} of {run['wordCount']} words" in final, f"{final}; run {run['state']}")
        check("the progress text changed from “not started” as the run went", len({text for text, _ in seen}) >= 2
              and seen[0][0] != final, seen)
        partial = [text for text, value in seen if 0 < value < 1]
        if partial:  # a book this short may be done before the service reports a part of it
            check("while running, the progress shows the percent and words done (and an ETA once it can)",
                  all(" % — " in text and "words" in text for text in partial), partial)
        check("the live region said how the run went", page.inner_text("#run-status") != "", page.inner_text("#run-status"))
        check("the live region is polite", page.get_attribute("#run-status", "aria-live") == "polite")

        # The read-along player, by keyboard: Tab into it, Space on its audio plays it.
        page.wait_for_selector("#player iframe", state="attached", timeout=15000)
        frame_element = page.query_selector("#player iframe")
        check("the player frame has a title", (frame_element.get_attribute("title") or "").startswith("Read-along player"),
              frame_element.get_attribute("title"))
        frame = frame_element.content_frame()
        frame.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
        scan(page, "the book view with its player and downloads")
        scan(page, "the read-along page in the player", frame=frame)
        for presses in range(80):
            if frame.evaluate("() => document.activeElement && document.activeElement.id") == "audio" and focused(page, "iframe"):
                break
            page.keyboard.press("Tab")
        require("Tab reaches the read-along player's audio", frame.evaluate("() => document.activeElement.id") == "audio",
                describe_focus(page))
        page.keyboard.press("Space")
        try:
            frame.wait_for_function("() => { const a = document.getElementById('audio'); return !a.paused && a.currentTime > 0.3; }", timeout=10000)
            check("Space plays the narration in the read-along player", True)
        except Exception as failure:
            check("Space plays the narration in the read-along player", False, failure)
        page.keyboard.press("Space")
        frame.wait_for_function("() => document.getElementById('audio').paused", timeout=15000)
        check("a word of the book is marked as the narration plays", frame.evaluate(
            "() => !!document.querySelector('.current-word, .next-word')"))

        # Every output downloaded by keyboard: its size the one the API reports.
        outputs = api.get(f"{base}/api/v1/jobs/{job_id}").json()["outputs"]
        links = page.eval_on_selector_all("#downloads a", "as => as.map(a => ({ href: a.getAttribute('href'), text: a.textContent, size: a.dataset.size }))")
        check("there is a download link for every output, and no other", sorted(l["href"] for l in links) == sorted(o["url"] for o in outputs)
              and len(outputs) >= 4, f"links {links}; outputs {outputs}")
        for output in outputs:
            answer = api.get(base + output["url"])
            check(f"{output['name']}: the link answers 200 with the size the API reports", answer.status == 200
                  and len(answer.body()) == output["size"], f"{answer.status}, {len(answer.body())} bytes, API {output['size']}")
            tab_to(page, f"#downloads a[href=\"{output['url']}\"]", f"the download of {output['name']}")
            with page.expect_download(timeout=10000) as download:
                page.keyboard.press("Enter")
            path = download.value.path()
            check(f"{output['name']}: Enter on its link downloads it whole", os.path.getsize(path) == output["size"]
                  and download.value.suggested_filename == output["name"].split("/")[-1],
                  f"{os.path.getsize(path)} bytes as {download.value.suggested_filename}")
        shown_sizes = page.inner_text("#downloads")
        check("each download says its kind and size", all(o["name"] in shown_sizes for o in outputs) and ("kB" in shown_sizes or "MB" in shown_sizes),
              shown_sizes)
        # The podcast feed's secret address is shown, and answers RSS without the session.
        feed_href = page.get_attribute("#feed-link", "href") or ""
        check("the book's podcast feed is shown", page.is_visible("#feed-link") and feed_href.endswith("/feed.xml"), feed_href)
        feed = playwright.request.new_context().get(feed_href)
        check("the feed's address answers RSS with no session", feed.status == 200 and b"<rss" in feed.body(), f"{feed.status}")

        # Back to the list, which says the book is narrated.
        tab_to(page, "#back-link", "“All books”", backwards=True, limit=200)
        page.keyboard.press("Enter")
        visible(page, "#books-view")
        page.wait_for_selector(f"#book-list a[href='#jobs/{job_id}']", timeout=10000)
        entry = page.inner_text("#book-list")
        check("the list shows the book as narrated", "Two Rooms" in entry and "narrated" in entry, entry)
        scan(page, "the books view with a book")

        # Signing out ends the session: the sign-in view again, and the API no longer answers the cookie.
        tab_to(page, "#sign-out", "“Sign out”", backwards=True)
        page.keyboard.press("Enter")
        visible(page, "#sign-in-view")
        check("signing out shows the sign-in view, its heading focused", focused(page, "#sign-in-heading"), describe_focus(page))
        check("signing out ends the session", api.get(base + "/api/v1/me").status == 401)
    except Stop:
        pass
    except Exception as failure:  # a timeout or the like: reported as a failed check with where the page was
        check("the flow ran to its end", False, f"{type(failure).__name__}: {failure}")
    check("the page logged no error or warning (no script or style refused by the policy)", not console, console)
    check("the only requests refused were the first visit's (not signed in) and the wrong token's",
          refused == ["GET /api/v1/me 401", "POST /api/v1/session 401"], refused)
    print(f"dashboard.py: the flow took {time.monotonic() - started:.1f} s", file=sys.stderr)
    browser.close()

print(json.dumps(checks))
