#!/usr/bin/env python3
"""`make bench BENCH=serve` (issue #27): `lectern serve` under load and faults.

With a book rendering in the server (the corpus's Pride and Prejudice, else the demo's text
repeated), and a finished job's MP3 of tens of megabytes:
  1. wrk, 64 connections, against the job status endpoint and against Range requests of the
     large MP3 (a random 64 KiB slice each): requests, failed requests (socket errors, non-2xx),
     latency p50/p99.
  2. kill -9 of the server during an upload (curl sending slowly): after a restart no job was
     created, no job folder exists, and the partial upload is in staging/ only (swept later).
  3. 1,000 Server-Sent Events connections, each reading its first event and leaving: the
     server's open file descriptors and resident memory before, after, and after 10 s.
  4. Malformed JSON, multipart and manifests: each answer's status and the field it names.
Usage: Scripts/bench-serve.py --lectern .build/release/lectern [--seconds 15]
"""
import argparse, json, os, random, re, shutil, signal, subprocess, sys, tempfile, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Server:
    def __init__(self, lectern, work, db, name="serve", extra=()):
        self.lectern, self.work, self.db = lectern, work, db
        self.data = os.path.join(work, "data")
        self.out = open(os.path.join(work, name + ".out"), "w+")
        self.err = open(os.path.join(work, name + ".log"), "w")
        self.proc = subprocess.Popen([lectern, "serve", "--data", self.data, "--port", "0", "--db", db, "--jobs-per-minute", "1000"]
                                     + list(extra), stdout=self.out, stderr=self.err)
        deadline = time.time() + 30
        self.port = None
        while time.time() < deadline and self.port is None:
            self.out.seek(0)
            m = re.search(r"listening on http://[0-9.]+:(\d+)", self.out.read())
            if m:
                self.port = int(m.group(1))
            else:
                time.sleep(0.1)
        if self.port is None:
            sys.exit("bench: lectern serve did not start")
        self.base = f"http://127.0.0.1:{self.port}"

    def kill(self, sig=signal.SIGTERM):
        self.proc.send_signal(sig)
        self.proc.wait(timeout=30)

    def fds(self):
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))


def token(lectern, db, name):
    return subprocess.run([lectern, "token", "add", name, "--owner", "bench", "--db", db], check=True, capture_output=True,
                          text=True).stdout.strip()


def api(server, tok, path, method="GET", data=None, headers=None):
    req = urllib.request.Request(server.base + path, data=data, method=method,
                                 headers={"Authorization": f"Bearer {tok}", **(headers or {})})
    try:
        with NO_PROXY.open(req, timeout=120) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def create(server, tok, path, title, rate="1"):
    out = subprocess.run(["curl", "-s", "--noproxy", "*", "-H", f"Authorization: Bearer {tok}", "-F", f"document=@{path}",
                          "-F", f"title={title}", "-F", f"rate={rate}", server.base + "/api/v1/jobs"], capture_output=True, text=True)
    return json.loads(out.stdout)


def wait_run(server, tok, job, timeout=3600):
    deadline = time.time() + timeout
    while time.time() < deadline:
        run = json.loads(api(server, tok, f"/api/v1/jobs/{job}")[1]).get("latestRun") or {}
        if run.get("state") in ("succeeded", "failed", "cancelled"):
            return run
        time.sleep(0.5)
    sys.exit("bench: the run did not end")


def wrk(url, tok, seconds, script=None):
    args = ["wrk", "-t2", "-c64", f"-d{seconds}s", "--latency", "-H", f"Authorization: Bearer {tok}"]
    if script:
        args += ["-s", script]
    out = subprocess.run(args + [url], capture_output=True, text=True).stdout
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = sum(int(x) for x in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    non2xx = int((re.search(r"Non-2xx or 3xx responses: (\d+)", out) or [0, 0])[1])
    lat = dict(re.findall(r"^\s+(50|99)%\s+([\d.]+\w+)", out, re.M))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    return {"requests": requests, "socket_errors": errors, "non_2xx": non2xx, "p50": lat.get("50"), "p99": lat.get("99"), "rps": rps}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lectern", default=os.path.join(ROOT, ".build/release/lectern"))
    p.add_argument("--seconds", type=int, default=15)
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="bench-serve-")
    db = os.path.join(work, "store.sqlite")
    tok = token(a.lectern, db, "bench")
    server = Server(a.lectern, work, db)
    print(f"lectern serve on port {server.port}, {os.cpu_count()} cores, load {open('/proc/loadavg').read().split()[:3]}")

    # A large MP3: the demo's two chapters of Alice, eight times over (some 2 h 45 min of audio).
    alice = open(os.path.join(ROOT, "Jobs/texts/alice-chapters-1-2.txt"), encoding="utf-8").read()
    big = os.path.join(work, "alice8.txt")
    with open(big, "w", encoding="utf-8") as f:
        f.write("\n\n".join(alice.replace("CHAPTER I.", f"CHAPTER {n}A.").replace("CHAPTER II.", f"CHAPTER {n}B.") for n in range(1, 9)))
    job1 = create(server, tok, big, "Alice eight times")["id"]
    t = time.time()
    api(server, tok, f"/api/v1/jobs/{job1}/runs", "POST")
    run = wait_run(server, tok, job1)
    outputs = json.loads(api(server, tok, f"/api/v1/jobs/{job1}/outputs")[1])
    mp3 = next(o for o in outputs if o["name"].endswith(".mp3"))
    print(f"rendered job {job1}: {run['state']}, {run['durationMs'] / 60000:.0f} min of audio in {time.time() - t:.0f} s; "
          f"MP3 {mp3['size'] / 1e6:.1f} MB")

    # A book rendering while the load runs.
    corpus = os.path.join(ROOT, "../shared/corpus/text/pg1342-pride-and-prejudice.txt")
    book = corpus if os.path.exists(corpus) else big
    job2 = create(server, tok, book, "Rendering", rate="0.5")["id"]
    api(server, tok, f"/api/v1/jobs/{job2}/runs", "POST")
    time.sleep(2)  # the render's workers are up (the load below is what is measured)
    lua = os.path.join(work, "range.lua")
    with open(lua, "w") as f:
        f.write(f"""math.randomseed(42)
request = function()
  local start = math.random(0, {mp3['size'] - 65537})
  wrk.headers["Range"] = "bytes=" .. start .. "-" .. (start + 65535)
  return wrk.format("GET", "{mp3['url']}")
end
""")
    status = wrk(server.base + f"/api/v1/jobs/{job2}", tok, a.seconds)
    ranges = wrk(server.base + mp3["url"], tok, a.seconds, lua)
    still = json.loads(api(server, tok, f"/api/v1/jobs/{job2}")[1])["latestRun"]
    print(f"status endpoint, 64 connections, {a.seconds} s, book rendering ({still['state']}, {still['fraction']:.0%}): {status}")
    print(f"Range requests of the {mp3['size'] / 1e6:.0f} MB MP3 (64 KiB each), 64 connections: {ranges}")

    # 1,000 event-stream connections, each reading its first event and leaving; twice, so that
    # the allocator's first growth is told from a leak.
    def reconnect(n):
        for _ in range(n):
            req = urllib.request.Request(server.base + f"/api/v1/jobs/{job1}/events", headers={"Authorization": f"Bearer {tok}"})
            with NO_PROXY.open(req, timeout=30) as r:
                while not r.readline().startswith(b"data:"):
                    pass

    def settle(baseline):
        deadline = time.time() + 15
        while server.fds() > baseline + 2 and time.time() < deadline:
            time.sleep(0.5)
        return server.fds(), server.rss_kib()

    before = (server.fds(), server.rss_kib())
    t = time.time()
    reconnect(1000)
    first = (server.fds(), server.rss_kib(), time.time() - t)
    settled = settle(before[0])
    reconnect(1000)
    second = settle(before[0])
    print(f"1000 SSE reconnects in {first[2]:.1f} s: fds {before[0]} → {first[0]} right after → {settled[0]} settled; "
          f"RSS {before[1] / 1024:.1f} → {settled[1] / 1024:.1f} MiB; after 1000 more: fds {second[0]}, RSS {second[1] / 1024:.1f} MiB")

    # Malformed requests.
    print("malformed requests:")
    cases = [
        ("PATCH", f"/api/v1/jobs/{job1}", b"{", {"Content-Type": "application/json"}),
        ("PATCH", f"/api/v1/jobs/{job1}", b'{"rate": "fast"}', {"Content-Type": "application/json"}),
        ("POST", "/api/v1/jobs", b"--x\r\nContent-Disposition: form-data; name=\"document\"; filename=\"a.txt\"\r\n\r\nhello",
         {"Content-Type": "multipart/form-data; boundary=x"}),
        ("POST", "/api/v1/jobs", b"hello", {"Content-Type": "multipart/form-data"}),
        ("POST", "/api/v1/jobs", b"--x\r\nContent-Disposition: form-data; name=\"manifest\"; filename=\"m.yml\"\r\n\r\n"
         b"title: T\nsources: [/etc/passwd]\n\r\n--x--\r\n", {"Content-Type": "multipart/form-data; boundary=x"}),
        ("POST", "/api/v1/jobs", b"--x\r\nContent-Disposition: form-data; name=\"manifest\"; filename=\"m.yml\"\r\n\r\n"
         b"title: T\nsources: [a.txt]\nvoice: { rate: 3 }\n\r\n--x\r\nContent-Disposition: form-data; name=\"document\"; "
         b"filename=\"a.txt\"\r\n\r\nSome words.\r\n--x--\r\n", {"Content-Type": "multipart/form-data; boundary=x"}),
    ]
    for method, path, body, headers in cases:
        code, answer = api(server, tok, path, method, body, headers)
        error = json.loads(answer).get("error", {})
        print(f"  {method} {path} {body[:40]!r}: {code}, field {error.get('field')}: {error.get('message')}")

    # kill -9 during an upload.
    jobs_before = len(json.loads(api(server, tok, "/api/v1/jobs")[1]))
    api(server, tok, f"/api/v1/jobs/{job2}/cancel", "POST")
    wait_run(server, tok, job2)
    huge = os.path.join(work, "huge.txt")
    with open(big, encoding="utf-8") as f, open(huge, "w", encoding="utf-8") as out:
        text = f.read()
        for _ in range(max(1, (5 << 20) // max(1, len(text)))):
            out.write(text)
    upload = subprocess.Popen(["curl", "-s", "--noproxy", "*", "--limit-rate", "100k", "-H", f"Authorization: Bearer {tok}",
                               "-F", f"document=@{huge}", "-F", "title=Killed", server.base + "/api/v1/jobs"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    staging = os.path.join(server.data, "staging")

    def received():
        return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(staging) for f in fs)

    deadline = time.time() + 60
    while time.time() < deadline and received() < 300_000:
        time.sleep(0.1)
    partial = received()
    server.kill(signal.SIGKILL)
    upload.wait()
    server = Server(a.lectern, work, db, name="serve2")
    jobs_after = len(json.loads(api(server, tok, "/api/v1/jobs")[1]))
    folders = len(os.listdir(os.path.join(server.data, "jobs")))
    print(f"kill -9 during an upload of {os.path.getsize(huge) / 1e6:.1f} MB ({partial} bytes received): jobs {jobs_before} → "
          f"{jobs_after} after restart, job folders {folders}, {received()} bytes left in staging/ (removed once idle 10 min)")
    server.kill()
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
