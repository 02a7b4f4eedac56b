#!/usr/bin/env python3
"""`make bench BENCH=faults` (issue #38): the standing fault suite.

Replays, against a real `lectern` binary, every way a run or the service was found to lose, leak
or fall over, and prints a table of trials held and broken (a Markdown table, for
docs/BENCHMARKS.md). A trial "holds" when what the issue asks is true afterwards; each row says
what was checked. Nothing here is a unit test: it is the attacker's and the careless user's
session, repeated.

Runs:
  chapters-folder  a user's file in NAME-chapters/ (before a first run, after one): check and run refuse, the file stays
  feed-folder      a user's file in a feed's audio/: `lectern feed` refuses, the file stays
  not-text         PDF, ZIP, DOCX, PNG, MP3, ELF, MOBI, random bytes under .txt/.md/.html/no name: `check` refuses, naming the kind
  kill-run         kill -9 of `lectern run` at random points: every output whole or absent, the store intact, the next run succeeds
  full-disk        the output folder on a full tmpfs (root only): the run fails naming the full disk, nothing half-written
  half-open        500 connections sending half a request: /api/v1/health answers in 100 ms throughout, they are closed
  linked-files     uploaded HTML linking /etc/passwd, a missing path, /dev/stdin, ../ paths: answered at once, the same
                   answer whether the path exists, nothing outside the job read
  audition         16 simultaneous first requests for one voice's audition: all 200, the same bytes, an MP3 that decodes
  paths-in-errors  every error body and event of failing jobs: no data or Config folder named
  upload-parts     3,000 empty parts, an empty document, two parts of one name: each 400
  kill-serve       kill -9 of serve with a run running and one queued: after a restart the run is interrupted, then
                   resumed, and the queued one runs
  patch-race       a PATCH and a run start at once, 50 times: the edit is refused, or the run reads it
Usage: Scripts/bench-faults.py --lectern .build/release/lectern [--only NAME,…] [--trials N]
"""
import argparse, json, os, random, re, shutil, signal, socket, sqlite3, subprocess, sys, tempfile, threading, time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))
BOOK = "\n\n".join(f"CHAPTER {i}. Part {i}\n\n" + "The tide came in over the flats while the gulls argued about the light. " * 3
                   for i in range(1, 4))
ROWS = []


def row(name, trials, held, checked):
    ROWS.append((name, trials, held, checked))
    print(f"  {name}: {held}/{trials} held — {checked}", flush=True)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(text)
    return path


class Ctx:
    def __init__(self, lectern, work, trials):
        self.lectern, self.work, self.trials = lectern, work, trials

    def folder(self, name):
        path = os.path.join(self.work, name)
        os.makedirs(path, exist_ok=True)
        return path

    def lect(self, args, folder, **kw):
        return run([self.lectern] + args + ["--db", os.path.join(folder, "store.sqlite")], **kw)


# ---------------------------------------------------------------- runs

def chapters_folder(c):
    held = trials = 0
    for when in ("before the first run", "after a run"):
        trials += 1
        ws = c.folder(f"chapters-{trials}")
        write(f"{ws}/book.txt", BOOK)
        manifest = write(f"{ws}/book.yml", "title: Book\nsplit: chapters\noutput: out\nsources: [book.txt]\n")
        if when == "after a run":
            c.lect(["run", "--quiet", manifest], ws)
        mine = write(f"{ws}/out/book-chapters/my notes.txt", "mine")
        check = run([c.lectern, "check", manifest])
        again = c.lect(["run", "--quiet", manifest], ws)
        ok = all(r.returncode != 0 and "my notes.txt" in r.stderr for r in (check, again)) and open(mine).read() == "mine"
        held += ok
    row("chapters-folder", trials, held, "check and run refuse a user's file in NAME-chapters/, naming it; it stays")


def feed_folder(c):
    ws = c.folder("feed")
    write(f"{ws}/book.txt", BOOK)
    manifest = write(f"{ws}/book.yml", "title: Book\noutput: out\nsources: [book.txt]\n")
    c.lect(["run", "--quiet", manifest], ws)
    mine = write(f"{ws}/public/audio/mine.mp3", "mine")
    r = c.lect(["feed", manifest, "--base-url", "https://example.org/f", "--out", f"{ws}/public"], ws)
    row("feed-folder", 1, int(r.returncode != 0 and "mine.mp3" in r.stderr and open(mine).read() == "mine"),
        "`lectern feed` refuses a user's file in the feed's audio/, naming it; it stays")


def not_text_samples(folder):
    """One real file of each kind that is not text, made here."""
    samples = {}
    pdf = b"%PDF-1.4\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n2 0 obj <</Type/Pages/Kids[]/Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n"
    samples["pdf"] = pdf
    z = os.path.join(folder, "z")
    os.makedirs(z, exist_ok=True)
    write(f"{z}/a.txt", "hello")
    run(["zip", "-q", "-j", f"{folder}/sample.zip", f"{z}/a.txt"])
    if os.path.exists(f"{folder}/sample.zip"):
        samples["zip"] = open(f"{folder}/sample.zip", "rb").read()
    os.makedirs(f"{z}/d/word", exist_ok=True)
    write(f"{z}/d/word/document.xml", "<w:document/>")
    write(f"{z}/d/[Content_Types].xml", "<Types/>")
    if run(["sh", "-c", f"cd {z}/d && zip -q -r {folder}/sample.docx ."]).returncode == 0:
        samples["docx"] = open(f"{folder}/sample.docx", "rb").read()
    samples["png"] = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                                   "1f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f40000000049454e44ae426082")
    wav = f"{folder}/sample.wav"
    if run(["espeak-ng", "-w", wav, "a sample"]).returncode == 0 and run(["lame", "--quiet", wav, f"{folder}/sample.mp3"]).returncode == 0:
        samples["mp3"] = open(f"{folder}/sample.mp3", "rb").read()
        samples["wav"] = open(wav, "rb").read()
    samples["elf"] = open("/bin/true", "rb").read()
    samples["mobi"] = b"\0" * 60 + b"BOOKMOBI" + os.urandom(200)
    samples["random"] = random.Random(38).randbytes(20000)
    return samples


def not_text(c):
    ws = c.folder("not-text")
    held = trials = 0
    broken = []
    for kind, data in not_text_samples(ws).items():
        for name in ("book.txt", "book.md", "book.html", "book.epub", "book"):
            trials += 1
            folder = os.path.join(ws, f"{kind}-{name}")
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
            manifest = write(f"{folder}/job.yml", f"title: T\nsources: [{name}]\n")
            r = run([c.lectern, "check", manifest])
            ok = r.returncode != 0 and name in r.stderr
            held += ok
            if not ok:
                broken.append(f"{kind} as {name}")
    row("not-text", trials, held, "`check` refuses a file that is not text, naming it" + (f"; broken: {', '.join(broken)}" if broken else ""))


def kill_run(c):
    ws = c.folder("kill-run")
    write(f"{ws}/book.txt", BOOK * 4)
    manifest = write(f"{ws}/book.yml", "title: Book\noutput: out\nformats: [mp3, m4b, opus]\nsplit: chapters\nsources: [book.txt]\n")
    rng = random.Random(7)
    held = 0
    for trial in range(c.trials):
        shutil.rmtree(f"{ws}/out", ignore_errors=True)
        proc = subprocess.Popen([c.lectern, "run", "--quiet", manifest, "--db", f"{ws}/store.sqlite"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, 4.0))  # a random point of the run, not a synchronisation
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        ok = True
        for d, _, files in os.walk(f"{ws}/out"):
            for f in files:
                path = os.path.join(d, f)
                if f.startswith(".") and f.endswith(".tmp") or f == ".lectern-files" or ".tmp" in d:
                    continue
                if f.endswith((".mp3", ".m4b", ".opus")):
                    ok &= run(["ffprobe", "-v", "error", path]).returncode == 0
        con = sqlite3.connect(f"{ws}/store.sqlite")
        ok &= con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        con.close()
        again = run([c.lectern, "run", "--quiet", manifest, "--db", f"{ws}/store.sqlite"])
        ok &= again.returncode == 0
        held += ok
    row("kill-run", c.trials, held, "after kill -9 at a random point: every output whole or absent, the store intact, the next run succeeds")


def full_disk(c):
    if os.geteuid() != 0:
        row("full-disk", 0, 0, "skipped: needs root to mount a tmpfs")
        return
    held = 0
    formats = ["mp3", "m4b", "opus"]
    for fmt in formats:
        ws = c.folder(f"full-{fmt}")
        out = os.path.join(ws, "out")
        os.makedirs(out, exist_ok=True)
        run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", out])
        try:
            fd = os.open(os.path.join(out, "filler"), os.O_WRONLY | os.O_CREAT)
            try:
                for size in (4096, 1):
                    while os.write(fd, b"x" * size) == size:
                        pass
            except OSError:
                pass
            finally:
                os.close(fd)
            write(f"{ws}/book.txt", BOOK)
            manifest = write(f"{ws}/book.yml", f"title: Book\noutput: out\nformats: [{fmt}]\nsources: [book.txt]\n")
            r = c.lect(["run", "--quiet", manifest], ws)
            left = [f for d, _, fs in os.walk(out) for f in fs if f != "filler"]
            held += int(r.returncode != 0 and "No space left on device" in r.stderr and "chunk PCM" not in r.stderr and not left)
        finally:
            run(["umount", "-l", out])
    row("full-disk", len(formats), held, "a full output disk in MP3, M4B, Opus: named as such, nothing half-written")


# ---------------------------------------------------------------- the service

class Server:
    def __init__(self, c, name, extra=()):
        self.c, self.name = c, name
        self.work = c.folder(name)
        self.db = os.path.join(self.work, "store.sqlite")
        self.data = os.path.join(self.work, "data")
        self.extra = list(extra)
        self.start()

    def start(self):
        self.out = open(os.path.join(self.work, "serve.out"), "w+")
        self.err = open(os.path.join(self.work, "serve.log"), "a")
        self.proc = subprocess.Popen([self.c.lectern, "serve", "--data", self.data, "--port", "0", "--db", self.db,
                                      "--jobs-per-minute", "100000"] + self.extra, stdout=self.out, stderr=self.err)
        deadline = time.time() + 30
        self.port = None
        while time.time() < deadline and self.port is None and self.proc.poll() is None:
            self.out.seek(0)
            m = re.search(r"listening on http://[0-9.]+:(\d+)", self.out.read())
            if m:
                self.port = int(m.group(1))
            else:
                time.sleep(0.05)
        if self.port is None:
            sys.exit(f"bench: lectern serve did not start: {open(os.path.join(self.work, 'serve.log')).read()[-2000:]}")
        self.base = f"http://127.0.0.1:{self.port}"
        if not hasattr(self, "token"):
            self.token = run([self.c.lectern, "token", "add", "bench", "--owner", "bench", "--admin", "--db", self.db]).stdout.strip() \
                or run([self.c.lectern, "token", "add", "bench2", "--owner", "bench", "--db", self.db]).stdout.strip()

    def stop(self, sig=signal.SIGTERM):
        self.proc.send_signal(sig)
        self.proc.wait(timeout=60)

    def api(self, path, method="GET", data=None, headers=None, timeout=60):
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Authorization": f"Bearer {self.token}", **(headers or {})})
        try:
            with NO_PROXY.open(req, timeout=timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def form(self, parts):
        """A multipart form: (name, filename or None, bytes) parts."""
        boundary = "faults%08x" % random.getrandbits(32)
        body = b""
        for name, filename, data in parts:
            disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename is not None else "")
            body += f"--{boundary}\r\nContent-Disposition: {disposition}\r\n\r\n".encode() + data + b"\r\n"
        body += f"--{boundary}--\r\n".encode()
        return self.api("/api/v1/jobs", "POST", body, {"Content-Type": f"multipart/form-data; boundary={boundary}"})

    def job(self, text="Some words to say.", name="job"):
        code, body = self.form([("document", f"{name}.txt", text.encode()), ("name", None, name.encode())])
        return json.loads(body)["id"] if code == 201 else None

    def latest(self, job):
        return json.loads(self.api(f"/api/v1/jobs/{job}")[1]).get("latestRun") or {}


def half_open(c):
    s = Server(c, "half-open")
    try:
        sockets = []
        worst = 0.0
        failures = 0
        for i in range(500):
            try:
                # 50 from each of ten loopback addresses: under the limit per client address.
                k = socket.create_connection(("127.0.0.1", s.port), timeout=5, source_address=(f"127.0.0.{2 + i // 50}", 0))
                k.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n")
                sockets.append(k)
            except OSError:
                pass
            if i % 50 == 49:
                t = time.time()
                code = s.api("/api/v1/health", timeout=5)[0]
                worst = max(worst, time.time() - t)
                failures += code != 200
        t = time.time()
        code = s.api("/api/v1/health", timeout=5)[0]
        worst = max(worst, time.time() - t)
        failures += code != 200
        # Those connections are closed by the server within its header timeout.
        deadline = time.time() + 120
        closed = 0
        for k in sockets:
            k.settimeout(max(0.1, deadline - time.time()))
            try:
                answer = k.recv(4096)
                # Closed, or answered 408 and then closed.
                closed += answer == b"" or answer.startswith(b"HTTP/1.1 408")
            except ConnectionResetError:
                closed += 1
            except socket.timeout:
                pass
            k.close()
        ok = failures == 0 and worst < 0.1
        row("half-open", 2, int(ok) + int(closed == len(sockets)),
            f"500 half-open connections: health answered {'always' if not failures else f'with {failures} failures'}, slowest "
            f"{worst * 1000:.0f} ms; {closed} of {len(sockets)} closed by the server")
    finally:
        s.stop()


def linked_files(c):
    s = Server(c, "linked")
    held = trials = 0
    answers = {}

    def scrub(text, href):
        text = re.sub(r"linked-\d+", "linked-N", text.replace(href, "HREF"))
        return re.sub(r'"(id|createdAt|feed|startedAt|endedAt|run|job)":\s*("[^"]*"|\d+)', "", text)

    try:
        for label, href in [("passwd", "/etc/passwd"), ("missing", "/etc/no-such-file-38"), ("stdin", "/dev/stdin"),
                            ("zero", "/dev/zero"), ("dotdot", "../../../../etc/passwd"), ("dotdot-missing", "../../../../etc/nope38")]:
            for rel in ("pronunciation", "stylesheet"):
                trials += 1
                page = (f'<html><head><title>T</title><link rel="{rel}" href="{href}" type="application/pls+xml"/></head>'
                        f'<body><h1>One</h1><p>Some words to say here.</p></body></html>')
                t = time.time()
                seen = []
                code, body = s.form([("document", "page.html", page.encode()), ("name", None, f"linked-{trials}".encode())])
                seen.append((code, scrub(body.decode("utf-8", "replace"), href)))
                if code == 201:
                    job = json.loads(body)["id"]
                    try:
                        code, body = s.api(f"/api/v1/jobs/{job}/script", timeout=15)
                    except Exception as e:  # a request that hangs is what this row is about
                        code, body = 0, repr(e).encode()
                    seen.append((code, scrub(body.decode("utf-8", "replace"), href)))
                    s.api(f"/api/v1/jobs/{job}/runs", "POST")
                    deadline = time.time() + 30
                    while s.latest(job).get("state") in (None, "queued", "running") and time.time() < deadline:
                        time.sleep(0.2)
                    seen.append((s.latest(job).get("state"), scrub(json.dumps(s.latest(job).get("error")), href)))
                seconds = time.time() - t
                answers[(label, rel)] = seen
                held += int(seconds < 45 and not any("root:" in text for _, text in seen))
        # The same answer for a path that exists and one that does not.
        for exists, missing in (("passwd", "missing"), ("dotdot", "dotdot-missing")):
            for rel in ("pronunciation", "stylesheet"):
                trials += 1
                same = answers[(exists, rel)] == answers[(missing, rel)]
                held += int(same)
                if not same and os.environ.get("FAULTS_VERBOSE"):
                    print(f"    {exists} vs {missing} ({rel}): {answers[(exists, rel)]} / {answers[(missing, rel)]}")
    finally:
        s.stop()
    row("linked-files", trials, held, "links to /etc, /dev and ../ from an uploaded page (job, script, run): answered, nothing "
                                      "read, the same answers whether the path exists")


def audition(c):
    s = Server(c, "audition")
    try:
        voices = json.loads(s.api("/api/v1/voices")[1])
        name = next(v["name"] for v in voices if v["name"].startswith("en"))
        results = [None] * 16
        barrier = threading.Barrier(16)

        def fetch(i):
            barrier.wait()
            results[i] = s.api(f"/api/v1/voices/{urllib.request.quote(name)}/audition", timeout=120)

        threads = [threading.Thread(target=fetch, args=(i,)) for i in range(16)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        ok = sum(code == 200 for code, _ in results)
        same = len({body for _, body in results}) == 1
        sample = os.path.join(s.work, "audition.mp3")
        with open(sample, "wb") as f:
            f.write(results[0][1])
        probe = run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", sample])
        decodes = probe.returncode == 0 and "mp3" in probe.stdout and run(["mpg123", "-q", "-t", sample]).returncode == 0
        row("audition", 16, ok if same and decodes else 0,
            f"16 simultaneous first auditions: {ok} × 200, {'the same bytes' if same else 'different bytes'}, "
            f"{'decodes' if decodes else 'does not decode'}")
    finally:
        s.stop()


def paths_in_errors(c):
    s = Server(c, "paths")
    config = os.path.join(ROOT, "Config")
    leaks = []
    bodies = []
    try:
        bodies.append(s.form([("manifest", "m.yml", b"title: T\nsources: [a.txt]\nvoice: { preset: no-such-preset }\n"),
                              ("document", "a.txt", b"Some words.")]))
        bodies.append(s.form([("manifest", "m.yml", b"title: T\nsources: [a.txt, b.txt]\n"), ("document", "a.txt", b"Words.")]))
        bodies.append(s.form([("document", "a.epub", b"PK\x03\x04 not really a zip")]))
        bodies.append(s.form([("document", "a.txt", b"Words."), ("cover", "c.png", b"\x89PNG\r\n\x1a\n broken")]))
        bodies.append(s.api("/api/v1/jobs/999999"))
        bodies.append(s.api("/api/v1/voices/nobody/audition"))
        # A run that fails: a job whose source changes into something unreadable after it was accepted.
        job = s.job("Words to say.", name="fails")
        if job is not None:
            for d, _, files in os.walk(os.path.join(s.data, "jobs")):
                for f in files:
                    if f == "fails.txt":
                        with open(os.path.join(d, f), "wb") as h:
                            h.write(b"\xff\xfe\x00\x00" + os.urandom(4000))
            s.api(f"/api/v1/jobs/{job}/runs", "POST")
            deadline = time.time() + 60
            while s.latest(job).get("state") in (None, "queued", "running") and time.time() < deadline:
                time.sleep(0.2)
            bodies.append(s.api(f"/api/v1/jobs/{job}"))
            bodies.append(s.api(f"/api/v1/jobs/{job}/runs"))
            try:
                req = urllib.request.Request(s.base + f"/api/v1/jobs/{job}/events", headers={"Authorization": f"Bearer {s.token}"})
                events = b""
                with NO_PROXY.open(req, timeout=5) as r:
                    deadline = time.time() + 5
                    while time.time() < deadline and len(events) < 20000:
                        line = r.readline()
                        if not line:
                            break
                        events += line
                bodies.append((200, events))
            except Exception:
                pass
        for code, body in bodies:
            text = body.decode("utf-8", "replace")
            for folder in (os.path.realpath(s.data), s.data, os.path.realpath(config), s.work):
                if folder in text:
                    leaks.append(f"{code}: {text[:160]}")
    finally:
        s.stop()
    row("paths-in-errors", len(bodies), len(bodies) - len(set(leaks)), "error bodies and events name no server folder"
        + (f"; leaked: {leaks[0]}" if leaks else ""))


def upload_parts(c):
    s = Server(c, "parts")
    try:
        held = 0
        code, _ = s.form([("document", f"e{i}.txt", b"") for i in range(3000)])
        held += code == 400
        code, _ = s.form([("document", "a.txt", b"")])
        held += code == 400
        code, _ = s.form([("document", "a.txt", b"Words."), ("document", "a.txt", b"")])
        held += code == 400
        code, _ = s.form([("document", "a.txt", b"Words."), ("document", "a.txt", b"Other words.")])
        held += code == 400
        row("upload-parts", 4, held, "3,000 empty parts, an empty document, two parts of one name (empty or not): 400")
    finally:
        s.stop()


def kill_serve(c):
    s = Server(c, "kill-serve", ["--max-concurrent", "1"])
    held = 0
    try:
        long_text = "\n\n".join(f"Paragraph {i}. " + "The tide came in over the flats while the gulls argued. " * 6 for i in range(400))
        first = s.job(long_text, name="first")
        second = s.job("A short one.", name="second")
        s.api(f"/api/v1/jobs/{first}/runs", "POST")
        s.api(f"/api/v1/jobs/{second}/runs", "POST")
        deadline = time.time() + 60
        while s.latest(first).get("state") != "running" and time.time() < deadline:
            time.sleep(0.1)
        s.stop(signal.SIGKILL)
        s.start()
        runs = json.loads(s.api(f"/api/v1/jobs/{first}/runs")[1])
        states = sorted(r.get("state") for r in (runs if isinstance(runs, list) else runs.get("runs", [])))
        held += "interrupted" in states
        latest = s.latest(first)
        deadline = time.time() + 30
        resumed = None
        while time.time() < deadline and not resumed:
            con = sqlite3.connect(s.db)
            resumed = con.execute("SELECT resumesRunId FROM run WHERE jobId = ? ORDER BY id DESC LIMIT 1", (first,)).fetchone()
            con.close()
            resumed = resumed and resumed[0]
            time.sleep(0.2)
        held += bool(resumed)
        s.api(f"/api/v1/jobs/{first}/cancel", "POST")
        deadline = time.time() + 300
        while time.time() < deadline and s.latest(second).get("state") not in ("succeeded", "failed", "cancelled"):
            time.sleep(0.5)
        held += s.latest(second).get("state") == "succeeded"
        row("kill-serve", 3, held, f"kill -9 with a run running and one queued: the killed run interrupted ({states}), "
                                   f"resumed ({'yes' if resumed else 'no'}, {latest.get('state')}), the queued one ran ({s.latest(second).get('state')})")
    finally:
        s.stop()


def patch_race(c):
    """An edit and a start sent at once: either the edit came first (both succeed, the run reads the
    edited manifest) or the run did (the edit is refused 409, the run reads the manifest before
    it) — never an accepted edit that a started run did not see. Which manifest a run read is told
    by its book hash (the title is part of it): one hash per title."""
    chunks = os.path.join(c.folder("race"), "chunks")
    os.makedirs(chunks, exist_ok=True)
    s = Server(c, "race", ["--workers", "0", "--chunks", chunks, "--max-concurrent", "4"])
    outcomes = {}
    hashes = {}
    lost = 0
    try:
        job = s.job("The race book.\n\nIt has one short paragraph to read.", name="race")
        current = "Alpha"
        s.api(f"/api/v1/jobs/{job}", "PATCH", json.dumps({"title": current}).encode(), {"Content-Type": "application/json"})
        for i in range(50):
            target = "Beta" if current == "Alpha" else "Alpha"
            results = {}
            barrier = threading.Barrier(2)

            def patch():
                barrier.wait()
                results["patch"] = s.api(f"/api/v1/jobs/{job}", "PATCH", json.dumps({"title": target}).encode(),
                                         {"Content-Type": "application/json"})[0]

            def start():
                barrier.wait()
                time.sleep(random.uniform(0, 0.02))  # either may reach the store first
                results["start"] = s.api(f"/api/v1/jobs/{job}/runs", "POST")[0]

            con = sqlite3.connect(s.db)
            before = con.execute("SELECT coalesce(max(id), 0) FROM run").fetchone()[0]
            threads = [threading.Thread(target=patch), threading.Thread(target=start)]
            [t.start() for t in threads]
            [t.join() for t in threads]
            key = f"edit {results['patch']}, start {results['start']}"
            outcomes[key] = outcomes.get(key, 0) + 1
            if results["patch"] == 200:
                current = target
            if results["start"] < 300:
                deadline = time.time() + 30
                found = None
                while time.time() < deadline and found is None:
                    found = con.execute("SELECT bookHash FROM run WHERE id > ? AND bookHash IS NOT NULL", (before,)).fetchone()
                    time.sleep(0.05)
                if found is None:
                    lost += 1
                else:
                    hashes.setdefault(current, set()).add(found[0])
            con.close()
            s.api(f"/api/v1/jobs/{job}/cancel", "POST")
            deadline = time.time() + 30
            while time.time() < deadline and s.api(f"/api/v1/jobs/{job}", "PATCH", json.dumps({"title": current}).encode(),
                                                   {"Content-Type": "application/json"})[0] != 200:
                time.sleep(0.05)
    finally:
        s.stop()
    mixed = sum(len(v) - 1 for v in hashes.values()) + lost
    row("patch-race", 50, 50 - mixed, f"a PATCH and a run start at once: every run read the manifest its race's outcome says "
                                      f"({', '.join(f'{k}: {v}' for k, v in sorted(outcomes.items()))})")


SCENARIOS = {"chapters-folder": chapters_folder, "feed-folder": feed_folder, "not-text": not_text, "kill-run": kill_run,
             "full-disk": full_disk, "half-open": half_open, "linked-files": linked_files, "audition": audition,
             "paths-in-errors": paths_in_errors, "upload-parts": upload_parts, "kill-serve": kill_serve, "patch-race": patch_race}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lectern", default=os.path.join(ROOT, ".build/release/lectern"))
    p.add_argument("--only", default="")
    p.add_argument("--trials", type=int, default=5)
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="bench-faults-")
    c = Ctx(os.path.abspath(a.lectern), work, a.trials)
    names = [n for n in a.only.split(",") if n] or list(SCENARIOS)
    print(f"{run([c.lectern, '--version']).stdout.strip()}, {os.cpu_count()} cores, work in {work}")
    for name in names:
        try:
            SCENARIOS[name](c)
        except Exception as e:  # a scenario that cannot run is a broken row, not the end of the suite
            row(name, 1, 0, f"the scenario failed: {e!r}")
    print("\n| scenario | trials | held | broken | what was checked |\n|---|---|---|---|---|")
    for name, trials, held, checked in ROWS:
        print(f"| {name} | {trials} | {held} | {trials - held} | {checked} |")
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if all(t == h for _, t, h, _ in ROWS) else 1)


if __name__ == "__main__":
    main()
