#!/usr/bin/env python3
"""The reading benchmark (issue #39, item 7): `make bench BENCH=reading`.

Each book of Bench/reading-books.tsv is read in two or more formats from one source (a Project
Gutenberg book's plain text and HTML from its GITenberg repository, a Standard Ebooks EPUB with the
same book's Gutenberg text), with no manifest, and the formats must agree:

    Scripts/bench-reading.py gather [--mirror DIR] [--books DIR]
        builds the git-ignored folder .bench-books/BOOK/ from snapshots of the repositories
        (/work/.mirror/OWNER+NAME/repo, as the search tool's `fetch` leaves them), checking each
        file's SHA-256; it names every repository whose snapshot is missing.
    Scripts/bench-reading.py run [--holdout | --fresh] [--lectern PATH] [--books DIR] [--out DIR] [--only A,B]
        runs `lectern check --json FILE` and `lectern check --text FILE` on every file (the two
        side by side, one per core), prints a table and a summary, and writes OUT/reading.md (Markdown for
        docs/BENCHMARKS.md) and OUT/reading.json (every metric, to diff runs). Which books it reads
        follows the list's `held_out` column: plain `run` reads the open set ("no", the books rules
        were developed on); --holdout only the 20 held out ("yes", the honest figure); --fresh only
        the fresh validation set ("fresh": books added later, measured once before anyone tuned
        rules on them, a second honest figure).
    Scripts/bench-reading.py report OUT/reading.json [--out DIR]
        judges a saved run again (after a change to the rules below) and writes its table anew.
    Scripts/bench-reading.py compare OLD.json NEW.json
        lists the books whose verdict, chapters or words read changed between two runs.

A Standard Ebooks EPUB is the repository's src/ folder at the listed commit, zipped with `mimetype`
first and stored, the rest deflated, every entry dated 1980-01-01. Its `sha256` column is not the
zip's hash (that would depend on the zlib version) but a digest of the tree: SHA-256 over the lines
"PATH\\0SHA256-OF-FILE\\n" of every file under src/ (paths relative to src/, sorted by byte value).

A book passes when, for every format against the first one listed (its plain text):
  - the number of chapters is the same;
  - at least 90 % of the chapter titles match in order (longest common subsequence of matching
    titles over the longer list; see `titles_match` for what matching means, and
    `continued_numbers` for chapter numbers that start again in each volume);
  - the words read differ by at most 3 % (of the larger count);
and in every format: no leak (licence lines, page numbers, note markers or URLs in the spoken text),
no skipped kind other than header, licence, contents and index above 3 % of the book's words
(words read + words skipped), and `lectern check` succeeded.
"""
import argparse
import concurrent.futures
import csv
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unicodedata
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "Bench", "reading-books.tsv")
BOOKS = os.path.join(ROOT, ".bench-books")
MIRROR = os.environ.get("BENCH_MIRROR", "/work/.mirror")
EXTENSIONS = {"txt": "txt", "html": "htm", "epub": "epub"}

# What a pass allows.
WORDS_TOLERANCE = 0.03
TITLES_NEEDED = 0.90
SKIP_SHARE = 0.03
ALLOWED_SKIPS = {"header", "licence", "contents", "index"}
SKIP_LISTED = 50  # skipped passages of fewer words are counted, not listed, in reading.json


# ---------------------------------------------------------------- the list and the snapshots

def read_list(path=LIST):
    """The rows of the book list, as dicts keyed by its header."""
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def books_of(rows):
    """Book id -> its rows (formats) in list order."""
    books = {}
    for row in rows:
        books.setdefault(row["book"], []).append(row)
    return books


def git_dir(mirror, repo):
    """The git directory of a repository's snapshot, or None when it has not been fetched."""
    base = os.path.join(mirror, repo.replace("/", "+"), "repo")
    for candidate in (os.path.join(base, ".git"), base):
        if os.path.isfile(os.path.join(candidate, "HEAD")):
            return candidate
    return None


def git(gdir, *args):
    return subprocess.run(["git", "--git-dir", gdir, *args], capture_output=True, check=True).stdout


def tree_files(gdir, commit, folder):
    """(path relative to folder, bytes) of every file under folder at commit, sorted by path."""
    listing = git(gdir, "ls-tree", "-r", "-z", commit, "--", folder + "/").decode("utf-8").split("\0")
    out = []
    for entry in listing:
        if not entry:
            continue
        meta, path = entry.split("\t", 1)
        if meta.split()[1] != "blob":
            continue
        out.append((path[len(folder) + 1:], git(gdir, "cat-file", "blob", meta.split()[2])))
    return sorted(out, key=lambda item: item[0].encode("utf-8"))


def tree_digest(files):
    """SHA-256 of "PATH\\0SHA256\\n" over the files (the EPUB rows' sha256 column)."""
    h = hashlib.sha256()
    for path, data in files:
        h.update(path.encode("utf-8") + b"\0" + hashlib.sha256(data).hexdigest().encode() + b"\n")
    return h.hexdigest()


def epub_bytes(files):
    """An EPUB of a Standard Ebooks src/ tree: mimetype first and stored, fixed dates."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        def put(path, data, method):
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = method
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
        put("mimetype", dict(files)["mimetype"], zipfile.ZIP_STORED)
        for path, data in files:
            if path != "mimetype":
                put(path, data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def file_name(row):
    return f"{row['book']}.{EXTENSIONS[row['format']]}"


def gather(args):
    rows = read_list()
    os.makedirs(args.books, exist_ok=True)
    missing, bad, written = set(), [], 0
    for row in rows:
        gdir = git_dir(args.mirror, row["repository"])
        if gdir is None:
            missing.add(row["repository"])
            continue
        try:
            if row["format"] == "epub":
                files = tree_files(gdir, row["commit"], row["path"])
                digest, data = tree_digest(files), epub_bytes(files)
            else:
                data = git(gdir, "cat-file", "blob", f"{row['commit']}:{row['path']}")
                digest = hashlib.sha256(data).hexdigest()
        except subprocess.CalledProcessError as error:
            bad.append(f"{row['repository']} {row['commit'][:10]} {row['path']}: {error.stderr.decode().strip()}"
                       " (the snapshot lacks that commit: fetch it again)")
            continue
        if digest != row["sha256"]:
            bad.append(f"{row['repository']} {row['path']}: SHA-256 {digest} ≠ the list's {row['sha256']}")
            continue
        folder = os.path.join(args.books, row["book"])
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, file_name(row)), "wb") as f:
            f.write(data)
        written += 1
    print(f"gather: {written} of {len(rows)} files written to {args.books}")
    for repo in sorted(missing):
        print(f"  missing snapshot: fetch github:{repo}  (expected in {args.mirror}/{repo.replace('/', '+')}/repo)")
    for line in bad:
        print(f"  wrong file: {line}")
    return 1 if missing or bad else 0


# ---------------------------------------------------------------- reading one file

def run_check(lectern, path, mode, workdir):
    """`lectern check --MODE path` in a scratch folder: (exit code, stdout, stderr, seconds)."""
    start = time.monotonic()
    proc = subprocess.run([lectern, "check", f"--{mode}", path], cwd=workdir, capture_output=True)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"), \
        time.monotonic() - start


def skip_kind(reason):
    """The kind of a skipped passage, from the reason `lectern check` gives
    (Sources/LecternDocuments: "Project Gutenberg header", "Project Gutenberg licence",
    "contents list", "table of contents (links within the book)", "index", "errata", …)."""
    r = reason.lower()
    if "gutenberg header" in r:
        return "header"
    if "licence" in r or "license" in r:
        return "licence"
    if "contents" in r:
        return "contents"
    if r == "index" or r.startswith("index "):
        return "index"
    return reason


LEAKS = {
    "licence": re.compile(r"project gutenberg|gutenberg\.org|ebook is for the use|gutenberg-tm", re.I),
    "page number": re.compile(r"\[\s*(?:pg|page|p\.)\s*[0-9ivxlc]+\s*\]|\{\s*(?:pg\.?\s*)?\d*\s*\}", re.I),
    "note marker": re.compile(r"\[\d{1,3}[a-z]?\]"),
    "URL": re.compile(r"https?://|\bwww\.[a-z0-9-]+\.[a-z]", re.I),
}
# The marks `check --text` puts before a spoken line (NarrationScript.swift): its kind, a persona
# and its voice, a language and its voice.
LINE_MARKS = re.compile(r"^(?:\[(?:heading|quote|speaker|stage direction)\] |• )?(?:\[[^\]]*(?: — |: )[^\]]*\] )*")


def spoken_lines(text):
    """The lines a listener hears, from `check --text` (chapters only; skipped passages and the
    per-language echo lines left out)."""
    inside = False
    for line in text.splitlines():
        if line.startswith("=== "):  # a chapter, or the summary of what was left out after the last one
            inside = line.startswith("=== Chapter ")
            continue
        if not inside or not line.startswith("  ") or line.startswith("    "):
            continue
        body = line[2:]
        if body.startswith("[skipped:"):
            continue
        yield LINE_MARKS.sub("", body, count=1)


def leaks_of(text):
    found = {}
    for line in spoken_lines(text):
        for name, pattern in LEAKS.items():
            for m in pattern.finditer(line):
                entry = found.setdefault(name, {"count": 0, "example": ""})
                entry["count"] += 1
                if not entry["example"]:
                    entry["example"] = line[max(0, m.start() - 40):m.end() + 40]
    return found


def measure(lectern, path):
    """Every metric of one file: chapters, words read and skipped by kind, the largest skip, leaks,
    the title Lectern found; or an error."""
    with tempfile.TemporaryDirectory(prefix="lectern-bench-reading.") as work:
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            json_run = pool.submit(run_check, lectern, path, "json", work)
            text_run = pool.submit(run_check, lectern, path, "text", work)
            (jcode, jout, jerr, jsec), (tcode, tout, terr, tsec) = json_run.result(), text_run.result()
    result = {"file": os.path.basename(path), "seconds": round(max(jsec, tsec), 1)}
    for mode, code, err in (("--json", jcode, jerr), ("--text", tcode, terr)):
        if code != 0:
            last = (err.strip().splitlines() or [f"exit status {code}"])[-1]
            result["error"] = f"check {mode}: {last[:200]}"
            return result
    doc = json.loads(jout)
    skipped = []
    for s in doc.get("skipped", []):
        skipped.append({"reason": s["reason"], "kind": skip_kind(s["reason"]), "words": len(s["text"].split()),
                        "excerpt": " ".join(s["text"].split()[:12])})
    by_kind = {}
    for s in skipped:
        by_kind[s["kind"]] = by_kind.get(s["kind"], 0) + s["words"]
    largest = max(skipped, key=lambda s: s["words"], default=None)
    other = max((s for s in skipped if s["kind"] not in ALLOWED_SKIPS), key=lambda s: s["words"], default=None)
    words = doc.get("words", 0)
    result.update({
        "title": doc.get("title"),
        "author": doc.get("author"),  # when `check --json` gives one
        "chapters": len(doc.get("chapters", [])),
        "chapter_titles": [c.get("title", "") for c in doc.get("chapters", [])],
        "chapter_words": [c.get("words", 0) for c in doc.get("chapters", [])],
        "words_read": words,
        "words_skipped": sum(by_kind.values()),
        "book_words": words + sum(by_kind.values()),
        "skipped_by_kind": dict(sorted(by_kind.items(), key=lambda kv: -kv[1])),
        "largest_skip": largest,
        "largest_other_skip": other,
        "skips": [s for s in skipped if s["words"] >= SKIP_LISTED],  # the rest only in skipped_by_kind
        "short_skips": sum(1 for s in skipped if s["words"] < SKIP_LISTED),
        "leaks": leaks_of(tout),
        "warnings": len(doc.get("warnings", [])),
        "first_line": (tout.splitlines() or [""])[0],
    })
    return result


# ---------------------------------------------------------------- comparing formats

ROMAN = re.compile(r"^(?=[mdclxvi])m{0,4}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
NUMBER_WORDS.update({w: str(i + 1) for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split())})
# Words that say what a heading is, not which one: left out so that "CHAPTER IV." matches "IV".
GENERIC = {"chapter", "chap", "ch", "chapitre", "kapitel", "capitulo", "cap", "the", "a", "an", "of",
           "le", "la", "les", "de", "der", "die", "das", "el", "los", "las"}


def roman_value(token):
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
    total = 0
    for a, b in zip(token, token[1:] + " "):
        total += -values[a] if b != " " and values[a] < values[b] else values[a]
    return total


def is_numeral_i(tokens, i, words):
    """Whether "I" is the numeral one (after "chapter", "book", …, or last) rather than the pronoun."""
    return i == len(words) - 1 or (tokens and tokens[-1] in {"chapter", "chap", "book", "part", "act", "scene", "letter"})


def normalise(title):
    """Lower case, accents and punctuation gone, Roman numerals and number words as digits,
    generic words ("chapter", articles) dropped: a tuple of tokens."""
    t = unicodedata.normalize("NFKD", title or "")
    t = "".join(c for c in t if not unicodedata.combining(c)).lower()
    t = re.sub(r"[’'`]", "", t)
    tokens, words = [], re.findall(r"[a-z0-9]+", t)
    for i, token in enumerate(words):
        if ROMAN.match(token) and (token != "i" or is_numeral_i(tokens, i, words)):
            token = str(roman_value(token))
        token = NUMBER_WORDS.get(token, token)
        tokens.append(token)
    return tuple(t for t in tokens if t not in GENERIC)


def titles_match(a, b):
    """Two chapter titles match when, normalised (see `normalise`), they are equal; one's tokens
    all appear in the other (an edition adds the chapter's name to its number, or drops it); or
    they share at least half their tokens; or the first number in each is the same ("CHAPTER IV.
    The Storm" and "Dracula, IV")."""
    if a == b:
        return True
    sa, sb = set(a), set(b)
    if sa and sb and (sa <= sb or sb <= sa):
        return True
    if sa and sb and len(sa & sb) / len(sa | sb) >= 0.5:
        return True
    na, nb = (next((t for t in x if t.isdigit()), None) for x in (a, b))
    return na is not None and na == nb


def continued_numbers(titles):
    """Normalised titles with bare chapter numbers counted through the book: where titles that are
    a number alone (`CHAPTER I`, `XIX`) start again at 1 after a count from 1 (an edition that numbers
    each volume's chapters afresh: VOLUME II's `CHAPTER I`), the count goes on from the last
    number before it (`CHAPTER I` of the second volume of 18 chapters is 19), so that it matches
    an edition that numbers the same chapters through the book. A bare number names nothing
    but the chapter's place; titles with words are left as they are, and the chapter count and the
    order of the titles are still compared, so a different division still fails."""
    out, offset, last, first = [], 0, None, None
    for t in titles:
        if len(t) == 1 and t[0].isdigit():
            n = int(t[0])
            # Only a count that went up from 1 starts again, and only at 1 (not a misprint, not a
            # stray numeral before the first chapter).
            if n == 1 and first == 1 and last is not None and last > 1:
                offset = last
                first = None
            if first is None:
                first = n
            last = n + offset
            t = (str(last),)
        out.append(t)
    return out


def matched_in_order(titles_a, titles_b):
    """The share of titles matched in order: the longest common subsequence under `titles_match`
    over the longer list (bare numbers counted through the book: `continued_numbers`)."""
    a, b = (continued_numbers([normalise(t) for t in titles]) for titles in (titles_a, titles_b))
    if not a and not b:
        return 1.0
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if titles_match(x, y) else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1] / max(len(a), len(b))


def judge(book, formats):
    """The reasons a book fails (an empty list: it passes)."""
    reasons = []
    for fmt, m in formats.items():
        if "error" in m:
            reasons.append(f"{fmt}: lectern check failed: {m['error']}")
    good = {fmt: m for fmt, m in formats.items() if "error" not in m}
    for fmt, m in good.items():
        for name, leak in m["leaks"].items():
            reasons.append(f"{fmt}: leak, {name} ×{leak['count']} (“{leak['example'].strip()}”)")
        for kind, words in m["skipped_by_kind"].items():
            if kind not in ALLOWED_SKIPS and m["book_words"] and words / m["book_words"] > SKIP_SHARE:
                reasons.append(f"{fmt}: skip “{kind}” {words:,} words ({words / m['book_words']:.0%} of the book)")
    names = list(good)
    if names:
        ref = names[0]
        r = good[ref]
        for fmt in names[1:]:
            m = good[fmt]
            if m["chapters"] != r["chapters"]:
                reasons.append(f"chapters: {ref} {r['chapters']}, {fmt} {m['chapters']}")
            share = matched_in_order(r["chapter_titles"], m["chapter_titles"])
            if share < TITLES_NEEDED:
                reasons.append(f"titles: {share:.0%} matched in order ({ref}/{fmt})")
            big = max(r["words_read"], m["words_read"]) or 1
            if abs(r["words_read"] - m["words_read"]) / big > WORDS_TOLERANCE:
                reasons.append(f"words read: {ref} {r['words_read']:,}, {fmt} {m['words_read']:,} "
                               f"({(m['words_read'] - r['words_read']) / big:+.0%})")
    return reasons


# ---------------------------------------------------------------- the run

SETS = {"open": "no", "held-out": "yes", "fresh": "fresh"}


def set_name(args):
    """The set a run reads: "open", "held-out" or "fresh"."""
    return "fresh" if getattr(args, "fresh", False) else "held-out" if args.holdout else "open"


def run(args):
    if not os.path.isdir(args.books):
        print(f"bench reading: {args.books} is absent (Scripts/bench-reading.py gather builds it from the "
              "repositories' snapshots); skipping")
        return 0
    if not os.access(args.lectern, os.X_OK):
        print(f"bench reading: no binary at {args.lectern}")
        return 1
    books = books_of(read_list())
    wanted = SETS[set_name(args)]
    chosen = {b: rows for b, rows in books.items() if rows[0]["held_out"] == wanted}
    if args.only:
        chosen = {b: rows for b, rows in chosen.items() if b in args.only.split(",")}
    jobs, absent = [], []
    for book, rows in chosen.items():
        for row in rows:
            path = os.path.join(args.books, book, file_name(row))
            (jobs if os.path.isfile(path) else absent).append((book, row["format"], path))
    if absent:
        print(f"bench reading: {len(absent)} files absent from {args.books} (run gather); those books are left out")
    skipped_books = {b for b, _, _ in absent}
    jobs = [j for j in jobs if j[0] not in skipped_books]
    print(f"bench reading: {len(chosen) - len(skipped_books)} books, {len(jobs)} files, "
          f"{set_name(args)} set, {args.lectern}", flush=True)
    results = {}
    start = time.monotonic()
    # Each file's two checks run side by side (2 cores); files one after another.
    for i, (book, fmt, path) in enumerate(jobs, 1):
        results.setdefault(book, {})[fmt] = measure(args.lectern, path)
        if args.verbose:
            m = results[book][fmt]
            print(f"  [{i}/{len(jobs)}] {book} {fmt}: {m.get('chapters', '-')} chapters, "
                  f"{m.get('words_read', '-')} words, {m['seconds']} s", flush=True)
    report = []
    for book, rows in chosen.items():
        if book in skipped_books:
            continue
        formats = {row["format"]: results[book][row["format"]] for row in rows}
        report.append({"book": book, "kind": rows[0]["kind"], "language": rows[0]["language"],
                       "formats": formats, "failures": judge(book, formats)})
    elapsed = time.monotonic() - start
    write_outputs(args, report, elapsed)
    return 0


def summary_lines(report):
    passed = sum(1 for r in report if not r["failures"])
    lines = [f"{passed} of {len(report)} books pass ({passed / max(len(report), 1):.1%}); goal ≥ 95 %"]
    by_kind = {}
    for r in report:
        k = by_kind.setdefault(r["kind"], [0, 0])
        k[0] += not r["failures"]
        k[1] += 1
    lines.append("by kind: " + ", ".join(f"{k} {p}/{n}" for k, (p, n) in sorted(by_kind.items())))
    causes = {}
    for r in report:
        for cause in {failure_cause(f) for f in r["failures"]}:
            causes[cause] = causes.get(cause, 0) + 1
    lines.append("failures by cause (books): " + ", ".join(f"{c} {n}" for c, n in sorted(causes.items(), key=lambda kv: -kv[1])))
    return lines


def failure_cause(reason):
    """A failure's cause without its numbers, to count them: "chapters", "leak, page number", …"""
    body = reason.split(": ", 1)[1] if reason.split(": ", 1)[0] in {"txt", "html", "epub"} else reason
    if body.startswith("leak"):
        return body.split(" ×")[0]
    if body.startswith("skip"):
        return "skip " + body.split("”")[0].split("“")[1]
    if body.startswith("lectern check failed"):
        return "check failed"
    return body.split(":")[0]


def cell(m, key):
    return "—" if "error" in m else f"{m[key]:,}"


def write_outputs(args, report, elapsed):
    os.makedirs(args.out, exist_ok=True)
    formats_of = lambda r: " / ".join(r["formats"])
    width = max((len(r["book"]) for r in report), default=10)
    print()
    for r in report:
        chapters = "/".join(cell(m, "chapters") for m in r["formats"].values())
        words = "/".join(cell(m, "words_read") for m in r["formats"].values())
        verdict = "pass" if not r["failures"] else "FAIL"
        print(f"{r['book']:<{width}}  {verdict}  {formats_of(r):<18} chapters {chapters:<12} words {words}")
        for f in r["failures"]:
            print(f"{'':<{width}}        - {f}")
    print()
    for line in summary_lines(report):
        print(line)
    print(f"({elapsed / 60:.1f} min)")
    with open(os.path.join(args.out, "reading.json"), "w", encoding="utf-8") as f:
        json.dump({"lectern": args.lectern, "held_out": args.holdout, "set": set_name(args), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                   "books": report}, f, ensure_ascii=False)
    md = [f"### Result ({time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, `{os.path.basename(args.lectern)}`, "
          f"{set_name(args)} set)", ""]
    md += [f"{line}  " for line in summary_lines(report)] + [""]
    md += ["| book | kind | lang | formats | chapters | words read | largest skip (not header, licence, contents, index) | result |", "|---|---|---|---|---|---|---|---|"]
    for r in report:
        chapters = " / ".join(cell(m, "chapters") for m in r["formats"].values())
        words = " / ".join(cell(m, "words_read") for m in r["formats"].values())
        largest = []
        for fmt, m in r["formats"].items():
            s = m.get("largest_other_skip")
            if s:
                largest.append(f"{fmt}: {s['reason']} {s['words']:,}")
            elif "largest_other_skip" not in m and "skipped_by_kind" in m:  # a run saved before the field
                others = [(w, k) for k, w in m["skipped_by_kind"].items() if k not in ALLOWED_SKIPS]
                if others:
                    largest.append(f"{fmt}: {max(others)[1]} {max(others)[0]:,} (all passages)")
        result = "pass" if not r["failures"] else "**fail**: " + "; ".join(f.replace("|", "\\|") for f in r["failures"])
        md.append(f"| {r['book']} | {r['kind']} | {r['language']} | {formats_of(r)} | {chapters} | {words} | "
                  f"{'; '.join(largest).replace('|', '/')} | {result} |")
    with open(os.path.join(args.out, "reading.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    print(f"written: {os.path.join(args.out, 'reading.md')}, {os.path.join(args.out, 'reading.json')}")


def report_again(args):
    """Judges a run's reading.json again (after a change to the rules of this script) and writes
    the table and summary anew."""
    with open(args.json, encoding="utf-8") as f:
        saved = json.load(f)
    listed = books_of(read_list())
    for r in saved["books"]:
        r["failures"] = judge(r["book"], r["formats"])
        if r["book"] in listed:  # the list's kind and language may have been corrected since
            r["kind"], r["language"] = listed[r["book"]][0]["kind"], listed[r["book"]][0]["language"]
    args.lectern, args.holdout = saved["lectern"], saved["held_out"]
    args.fresh = saved.get("set") == "fresh"
    write_outputs(args, saved["books"], 0)
    return 0


def compare(args):
    """What changed between two runs' reading.json: books that now pass or fail, and each book's
    chapters and words read per format where they differ."""
    old, new = ({b["book"]: b for b in json.load(open(p, encoding="utf-8"))["books"]} for p in (args.old, args.new))
    for book in sorted(set(old) & set(new)):
        a, b = old[book], new[book]
        was, now = not judge(book, a["formats"]), not judge(book, b["formats"])
        changes = []
        for fmt in b["formats"]:
            ma, mb = a["formats"].get(fmt, {}), b["formats"][fmt]
            for key in ("chapters", "words_read"):
                if ma.get(key) != mb.get(key):
                    changes.append(f"{fmt} {key} {ma.get(key)} → {mb.get(key)}")
        if was != now or changes:
            verdict = {(True, False): "NOW FAILS", (False, True): "now passes"}.get((was, now), "pass" if now else "fail")
            print(f"{book:<30} {verdict:<10} {'; '.join(changes)}")
            if not now:
                for f in judge(book, b["formats"]):
                    print(f"{'':<30}   - {f}")
    passed = lambda books: sum(1 for b in books.values() if not judge(b["book"], b["formats"]))
    print(f"pass: {passed(old)} of {len(old)} → {passed(new)} of {len(new)}")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gather", help="build the books' folder from the repositories' snapshots")
    g.add_argument("--mirror", default=MIRROR)
    g.add_argument("--books", default=BOOKS)
    r = sub.add_parser("run", help="read every book and compare its formats")
    r.add_argument("--lectern", default=os.path.join(ROOT, ".build", "release", "lectern"))
    r.add_argument("--books", default=BOOKS)
    r.add_argument("--out", default=os.path.join(BOOKS, "results"))
    which = r.add_mutually_exclusive_group()
    which.add_argument("--holdout", action="store_true", help="only the 20 held-out books")
    which.add_argument("--fresh", action="store_true", help="only the fresh validation set (held_out = fresh)")
    r.add_argument("--only", help="comma-separated book ids")
    r.add_argument("-v", "--verbose", action="store_true")
    j = sub.add_parser("report", help="judge a run's reading.json again and write its table")
    j.add_argument("json")
    j.add_argument("--out", default=os.path.join(BOOKS, "results"))
    c = sub.add_parser("compare", help="what changed between two runs' reading.json")
    c.add_argument("old")
    c.add_argument("new")
    args = parser.parse_args()
    if args.command == "compare":
        return compare(args)
    if args.command == "gather":
        return gather(args)
    if args.command == "report":
        return report_again(args)
    args.lectern = os.path.abspath(args.lectern)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
