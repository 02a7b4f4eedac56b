"""Drives a read-along page (`lectern run` with `timings: [html]`) in headless Chromium with
Playwright, as a reader would: keys, Tab and Enter, a reload, resizes, and `?t=` in a pause.

    read_along.py PAGE.html SIDECAR.timings.json CHROMIUM LANGUAGE

After each action it reads what the page marks (the `current-word`, `next-word`,
`current-chapter` elements), where the audio is, and where the marked word lies, and compares
that with its own reading of the sidecar. It prints one JSON list of checks,
`[{"name": …, "ok": true|false, "detail": …}, …]`, and exits 0 (a failed check is a result, not
an error); it exits 2 when Playwright cannot be imported.
"""
import json
import sys

try:
    from playwright.sync_api import sync_playwright
except ImportError as error:  # the Swift test skips with this message
    print(f"playwright is not installed: {error}", file=sys.stderr)
    sys.exit(2)

page_path, sidecar_path, chromium, language = sys.argv[1:5]
sidecar = json.load(open(sidecar_path, encoding="utf-8"))

# The sidecar in reading order: every word and sentence, with its chapter and paragraph.
words, sentences, chapters, paragraphs = [], [], [], []
for c, chapter in enumerate(sidecar["chapters"]):
    chapters.append((chapter["start"], chapter["end"]))
    for paragraph in chapter["paragraphs"]:
        p = len(paragraphs)
        paragraphs.append(paragraph)
        for sentence in paragraph["sentences"]:
            sentences.append((sentence["start"], sentence["end"]))
            for word in sentence["words"]:
                words.append({"start": word["start"], "end": word["end"], "chapter": c, "paragraph": p})

checks = []


def check(name, ok, detail=""):
    checks.append({"name": name, "ok": bool(ok), "detail": str(detail)})
    return ok


def spoken_at(ms):
    """The index of the word the sidecar says is spoken at ms, or None."""
    found = [i for i, w in enumerate(words) if w["start"] <= ms < w["end"]]
    return found[0] if found else None


def next_after(ms):
    found = [i for i, w in enumerate(words) if w["start"] > ms]
    return found[0] if found else None


def chapter_at(ms):
    found = [c for c, (start, end) in enumerate(chapters) if start <= ms]
    return found[-1] if found else None


STATE = """() => {
  const audio = document.getElementById("audio"), main = document.getElementById("text");
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const word = document.querySelector(".current-word"), next = document.querySelector(".next-word");
  const marked = word || next;
  const focused = document.activeElement;
  return {
    ms: Math.round(audio.currentTime * 1000), paused: audio.paused,
    word: word && word.id, words: document.querySelectorAll(".current-word").length,
    next: next && next.id, nexts: document.querySelectorAll(".next-word").length,
    chapters: [...document.querySelectorAll(".current-chapter")].map((a) => a.dataset.chapter),
    markedBox: box(marked), mainBox: box(main), window: [window.innerWidth, window.innerHeight],
    chapterBox: box(document.querySelector(".current-chapter")), navBox: box(document.getElementById("chapters")),
    focused: focused && focused.id, tabStops: document.querySelectorAll("#text [tabindex='0']").length,
    resume: !document.getElementById("resume").hidden, resumeMs: document.getElementById("resume").dataset.ms || null,
    lang: document.documentElement.lang,
  };
}"""


def state(page):
    return page.evaluate(STATE)


def inside(box, outer):
    return box is not None and box[1] >= outer[1] - 1 and box[3] <= outer[3] + 1 and box[0] >= outer[0] - 1 and box[2] <= outer[2] + 1


def expect_marked(page, name, ms=None):
    """The page marks what the sidecar names at the audio's time (or at `ms` when given), and the
    marked word lies inside the text's scrolling box and the window."""
    s = state(page)
    if ms is not None:
        check(f"{name}: the audio is at {ms} ms", s["ms"] == ms, f"audio at {s['ms']} ms")
    at = s["ms"]
    spoken = spoken_at(at)
    if spoken is not None:
        check(f"{name}: the current word at {at} ms is w{spoken}", s["word"] == f"w{spoken}" and s["words"] == 1 and s["nexts"] == 0,
              f"current-word {s['word']} ({s['words']}), next-word {s['next']}")
    else:
        following = next_after(at)
        check(f"{name}: in a pause at {at} ms no word is current and the next is w{following}",
              s["words"] == 0 and s["next"] == (f"w{following}" if following is not None else None),
              f"current-word {s['word']}, next-word {s['next']}")
    chapter = chapter_at(at)
    check(f"{name}: the chapter list marks chapter {chapter}", s["chapters"] == [str(chapter)], f"marked {s['chapters']}")
    check(f"{name}: the marked chapter's link lies in the chapter list's view", inside(s["chapterBox"], s["navBox"]),
          f"link {s['chapterBox']}, list {s['navBox']}")
    window = [0, 0, s["window"][0], s["window"][1]]
    check(f"{name}: the marked word lies in the viewport", inside(s["markedBox"], s["mainBox"]) and inside(s["markedBox"], window),
          f"word {s['markedBox']}, text box {s['mainBox']}, window {s['window']}")
    return s


def settle(page):
    """Two animation frames: what a resize or a key started has been laid out and handled."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"])
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    page = context.new_page()
    console = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: console.append(f"error: {error}"))
    url = "file://" + page_path

    def open_page(query=""):
        page.goto(url + query)
        page.wait_for_selector("body[data-ready='1']", state="attached")

    open_page()
    s = state(page)
    check("<html lang> is the book's language", s["lang"] == language, s["lang"])
    check("a first visit offers no position to continue", not s["resume"])
    longest = max(sum(len(sentence["words"]) for sentence in p["sentences"]) for p in paragraphs)
    check("only one paragraph's words are tab stops", 0 < s["tabStops"] <= longest, f"{s['tabStops']} tab stops, {len(words)} words")

    # → three times: the start of the third sentence; ← back to the second.
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect_marked(page, "→ ×3", sentences[2][0])
    page.keyboard.press("ArrowLeft")
    expect_marked(page, "←", sentences[1][0])

    # Shift+→: the next chapters' starts (a pause before the heading); Shift+← back one.
    page.keyboard.press("Shift+ArrowRight")
    expect_marked(page, "Shift+→", chapters[1][0])
    page.keyboard.press("Shift+ArrowRight")
    expect_marked(page, "Shift+→ again", chapters[2][0])
    page.keyboard.press("Shift+ArrowLeft")
    expect_marked(page, "Shift+←", chapters[1][0])

    # Space plays, Space pauses; the page then marks what is spoken where the audio stopped.
    before = state(page)["ms"]
    page.keyboard.press("Space")
    try:
        page.wait_for_function(f"() => !document.getElementById('audio').paused && document.getElementById('audio').currentTime * 1000 > {before + 700}",
                               timeout=10000)
        played = True
    except Exception as error:  # reported as a failed check
        played = False
        check("Space starts the narration", False, error)
    if played:
        check("Space starts the narration", True)
        page.keyboard.press("Space")
        page.wait_for_function("() => document.getElementById('audio').paused", timeout=15000)
        settle(page)
        s = expect_marked(page, "Space, Space")
        check("Space pauses the narration", s["paused"])

    # With the player focused, Space still plays and pauses once per press (the page answers it,
    # and keeps the release from the player's own controls, which would toggle again).
    page.focus("#audio")
    page.keyboard.press("Space")
    try:
        page.wait_for_function("() => !document.getElementById('audio').paused", timeout=15000)
        page.wait_for_timeout(300)
        check("Space on the focused player plays (once, not play then pause)", not state(page)["paused"])
    except Exception as error:
        check("Space on the focused player plays (once, not play then pause)", False, error)
    page.keyboard.press("Space")
    page.wait_for_function("() => document.getElementById('audio').paused", timeout=15000)
    settle(page)
    expect_marked(page, "Space, Space on the player")

    # Tab reaches a word of the current paragraph (after the header's and chapter list's stops),
    # Tab again the next word, Enter narrates from it.
    anchor = state(page)
    target = anchor["word"] or anchor["next"]
    focused = None
    for presses in range(1, 80):
        page.keyboard.press("Tab")
        focused = state(page)["focused"]
        if focused and focused.startswith("w"):
            break
    check("Tab reaches a word", focused and focused.startswith("w"), f"focus on {focused} after {presses} presses")
    if focused and focused.startswith("w"):
        index = int(focused[1:])
        check("the first word Tab reaches is in the current paragraph",
              words[index]["paragraph"] == words[int(target[1:])]["paragraph"], f"{focused}, current {target}")
        page.keyboard.press("Tab")
        second = state(page)["focused"]
        check("Tab moves to the next word", second == f"w{index + 1}", second)
        # Enter narrates from the word: the audio plays from its start (paused again at once, the
        # position checked against the word's start and the marks against the position).
        start = words[index + 1]["start"]
        page.keyboard.press("Enter")
        try:
            page.wait_for_function("() => !document.getElementById('audio').paused", timeout=15000)
            played = True
        except Exception:
            played = False
        check("Enter on a word plays", played, "the audio stayed paused")
        page.evaluate("() => document.getElementById('audio').pause()")
        settle(page)
        at = state(page)["ms"]
        check("Enter on a word narrates from its start", start <= at < start + 3000, f"audio at {at} ms, the word starts at {start} ms")
        expect_marked(page, "Enter on a word")
        page.keyboard.press("ArrowRight")
        s = state(page)
        check("→ takes the focus along to the new current word", s["focused"] == (s["word"] or s["next"]), f"focus {s['focused']}, word {s['word'] or s['next']}")

    # The remembered position: a reload offers it and does not move until asked.
    remembered = state(page)["ms"]
    page.reload()
    page.wait_for_selector("body[data-ready='1']", state="attached")
    s = state(page)
    check("a reload offers the remembered position", s["resume"] and s["resumeMs"] == str(remembered), f"offer {s['resume']} at {s['resumeMs']}, left at {remembered}")
    check("the offer does not move the narration", s["ms"] == 0, f"audio at {s['ms']}")
    page.click("#resume-continue")
    expect_marked(page, "Continue", remembered)
    check("the offer is gone once taken", not state(page)["resume"])

    # ?t= in a pause between paragraphs, far down the book: the right chapter, the next word in view.
    gaps = [(paragraphs[k]["end"], paragraphs[k + 1]["start"]) for k in range(len(paragraphs) - 1)
            if paragraphs[k + 1]["start"] - paragraphs[k]["end"] >= 200 and words[-1]["start"] > paragraphs[k + 1]["start"]]
    pause = (gaps[-1][0] + gaps[-1][1]) // 2
    open_page(f"?t={pause / 1000:.3f}")
    expect_marked(page, f"?t= in the pause at {pause} ms", pause)
    check("a page opened at ?t= offers nothing", not state(page)["resume"])

    # Resizes and rotations while paused keep the marked word in view.
    for width, height in [(360, 640), (640, 360), (1280, 400), (320, 900)]:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        expect_marked(page, f"paused in a pause, resized to {width}×{height}", pause)
    spoken = words[len(words) * 2 // 3]
    middle = (spoken["start"] + spoken["end"]) // 2
    open_page(f"?t={middle / 1000:.3f}")
    for width, height in [(1000, 700), (360, 640), (800, 300)]:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        expect_marked(page, f"paused on a word, resized to {width}×{height}", middle)

    check("the page logged nothing to the console", not console, console)
    browser.close()

print(json.dumps(checks))
