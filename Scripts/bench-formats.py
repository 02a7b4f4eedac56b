#!/usr/bin/env python3
"""formats: [m4b] and [opus] against the pipeline a user types, and the cost of `loudness:` (issue #25 item 7).

Usage (from the repository root, with the bench venv that `make bench-deps` makes):
    .venv-bench/bin/python Scripts/bench-formats.py [--lectern BIN] [--repeat N] [--text FILE]

Text: the demo's two chapters of Alice (Jobs/texts/alice-chapters-1-2.txt, about 21 minutes of
audio), voice en-us at 175 words per minute for both sides. One untimed Lectern render (JSON
sidecar) gives the exact text Lectern speaks, chapter by chapter; the baseline speaks those texts.

Each round runs, one after the other (never two at once), each timed by /usr/bin/time (wall, user
and system seconds of the command and every process it waited for):
  L-m4b   lectern run of `formats: [m4b]`, a new store and chunk cache, workers = cores
  U-m4b   espeak-ng -v en-us -s 175 -w chN.wav -f chN.txt for each chapter in turn (a shell loop),
          then one ffmpeg -c:a aac -b:a 64k over the concatenated WAVs with an ffmetadata chapter
          file ([CHAPTER] TIMEBASE=1/1000 START END title) to book.m4b
  L-opus  lectern run of `formats: [opus]`, a new store and chunk cache
  U-opus  the same espeak-ng loop, then opusenc --bitrate 32 per chapter
  L-mp3   lectern run of `formats: [mp3]`, loudness: off, a new store and chunk cache
  L-loud  the same with loudness: { target: -18, true_peak: -1.5 }
The rounds' medians are reported; ratios are Lectern / the user's pipeline.

Quality: wideband PESQ (P.862.2, PyPI `pesq`) of each decoded output against that encoder's own
input, both resampled to 16 kHz mono by ffmpeg (the method of bench-quality.py):
  - the user's M4B against the concatenated espeak-ng WAVs it was encoded from, and each chapter's
    Opus against its WAV, cut into segments of about 60 s at the quietest 20 ms;
  - Lectern's M4B and Opus against the chunks' PCM that Lectern encodes them from, which its cache
    keeps losslessly (CACHE/chunks/xx/KEY.flac; the store's runChunk table gives their order). The
    book lays its chunks out with a few frames between them, so each chunk is found in the decoded
    book by cross-correlation near where the previous one ended and scored on its own (chunks
    are about a minute of speech, like the segments above); the score is the length-weighted mean.
Both sides encode the same voice speaking the same text at the same bit rates (AAC-LC 64 kbit/s,
Opus 32 kbit/s); what differs is only that Lectern's PCM has its own pauses between sentences.
"""
import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile

import numpy as np
from pesq import pesq

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Scripts"))
quality = __import__("bench-quality")  # pcm16k, segments

VOICE, WPM = "en-us", 175
RATE = 16000


def timed(cmd, work, **kw):
    """(wall, cpu) seconds of a command: GNU time's elapsed and user + system of it and its children."""
    out = os.path.join(work, "time.txt")
    subprocess.run(["/usr/bin/time", "-f", "%e %U %S", "-o", out] + cmd, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
    e, u, s = open(out).read().split()[-3:]
    return float(e), float(u) + float(s)


def manifest(work, name, text, formats, loudness="off"):
    path = os.path.join(work, f"{name}.yml")
    with open(path, "w") as f:
        f.write(f"title: Alice's Adventures in Wonderland\nauthor: Lewis Carroll\noutput: out/{name}\n"
                f"sources:\n  - path: {text}\nvoice: {{ name: {VOICE}, wpm: {WPM} }}\n"
                f"formats: [{formats}]\nloudness: {loudness}\ntimings: [json]\n")
    return path


def lectern_run(lectern, work, name, text, formats, loudness="off"):
    """A fresh job: new store, new chunk cache (beside the store), no earlier output."""
    yml = manifest(work, name, text, formats, loudness)
    run = os.path.join(work, f"run-{name}")
    shutil.rmtree(run, ignore_errors=True)
    shutil.rmtree(os.path.join(work, "out", name), ignore_errors=True)
    os.makedirs(run)
    t = timed([lectern, "run", "--quiet", yml, "--db", os.path.join(run, "store.sqlite")], work, cwd=work)
    return t, run


def chapters_of(sidecar, folder):
    doc = json.load(open(sidecar))
    chapters = []
    for c in doc["chapters"]:
        txt = os.path.join(folder, f"ch{c['number']:02d}.txt")
        open(txt, "w").write("\n\n".join(p["text"] for p in c["paragraphs"]) + "\n")
        chapters.append((f"ch{c['number']:02d}", c["title"]))
    return chapters, doc["durationMs"] / 1000


def user_m4b_script(chapters):
    """What a user types: espeak-ng per chapter in a loop, then ffmpeg with a chapter file."""
    names = " ".join(n for n, _ in chapters)
    return f"""set -e
for c in {names}; do espeak-ng -v {VOICE} -s {WPM} -w $c.wav -f $c.txt; done
{{ echo ';FFMETADATA1'; echo "title=Alice's Adventures in Wonderland"; start=0
  while read -r c title; do
    ms=$(( $(stat -c %s $c.wav) - 44 )); ms=$(( ms / 2 * 1000 / 22050 ))
    printf '[CHAPTER]\\nTIMEBASE=1/1000\\nSTART=%d\\nEND=%d\\ntitle=%s\\n' $start $((start + ms)) "$title"
    start=$((start + ms))
  done < titles.txt; }} > chapters.txt
for c in {names}; do echo "file '$c.wav'"; done > list.txt
ffmpeg -v error -y -f concat -safe 0 -i list.txt -i chapters.txt -map_metadata 1 -map_chapters 1 -c:a aac -b:a 64k book.m4b
"""


def user_opus_script(chapters):
    names = " ".join(n for n, _ in chapters)
    return f"""set -e
for c in {names}; do espeak-ng -v {VOICE} -s {WPM} -w $c.wav -f $c.txt; done
for c in {names}; do opusenc --quiet --bitrate 32 $c.wav $c.opus; done
"""


def pesq_whole(ref, deg):
    """Wideband PESQ of a decoded file against its encoder's input, as bench-quality.py scores it,
    after removing any constant lag (none is expected: both containers carry the encoder delay)."""
    lag = lag_of(ref[: 30 * RATE], deg[: 31 * RATE + RATE], 0, RATE)
    deg = deg[lag:] if lag >= 0 else np.concatenate([np.zeros(-lag, np.float32), deg])
    n = min(len(ref), len(deg))
    parts = quality.segments(ref[:n])
    scores = [pesq(RATE, ref[a:b], deg[a:b], "wb") for a, b in parts]
    return scores, [b - a for a, b in parts], lag


def lag_of(ref, region, center, radius):
    """The offset in `region` (near `center`, ± `radius` samples) where `ref` matches best."""
    lo = max(0, center - radius)
    hi = min(len(region), center + radius + len(ref))
    seg = region[lo:hi]
    if len(seg) < len(ref):
        return center
    n = 1 << int(np.ceil(np.log2(len(seg) + len(ref))))
    corr = np.fft.irfft(np.fft.rfft(seg, n) * np.conj(np.fft.rfft(ref, n)), n)[: len(seg) - len(ref) + 1]
    return lo + int(np.argmax(corr))


def pesq_chunks(run, book):
    """Lectern's book (decoded) against the cached PCM of each of its chunks, found in order."""
    db = sqlite3.connect(os.path.join(run, "store.sqlite"))
    keys = [k for (k,) in db.execute("SELECT key FROM runChunk WHERE runId = (SELECT MAX(runId) FROM runChunk) ORDER BY position")]
    deg = quality.pcm16k(book)
    at, scores, weights, gaps = 0, [], [], []
    for key in keys:
        ref = quality.pcm16k(os.path.join(run, "cache", "chunks", key[:2], key + ".flac"))
        probe = ref[: 10 * RATE]
        found = lag_of(probe, deg, at, RATE)
        gaps.append(found - at)
        piece = deg[found:found + len(ref)]
        for a, b in quality.segments(ref[: len(piece)]):  # a chunk may speak longer than pesq takes
            scores.append(pesq(RATE, ref[a:b], piece[a:b], "wb"))
            weights.append(b - a)
        at = found + len(ref)
    return scores, weights, gaps


def mean(scores, weights):
    return float(np.average(scores, weights=weights))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lectern", default=os.environ.get("LECTERN", os.path.join(ROOT, ".build/release/lectern")))
    ap.add_argument("--repeat", type=int, default=int(os.environ.get("REPEAT", 3)))
    ap.add_argument("--text", default=os.environ.get("TEXT", os.path.join(ROOT, "Jobs/texts/alice-chapters-1-2.txt")))
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    args = ap.parse_args()
    lectern, text = os.path.abspath(args.lectern), os.path.abspath(args.text)
    if not os.access(lectern, os.X_OK):
        sys.exit(f"bench-formats: no lectern binary at {lectern}")
    for tool in ("espeak-ng", "ffmpeg", "opusenc"):
        if not shutil.which(tool):
            sys.exit(f"bench-formats: {tool} is missing (make test-deps installs it)")
    cores = os.cpu_count()
    work = tempfile.mkdtemp(prefix="lectern-formats.")
    user = os.path.join(work, "user")
    os.makedirs(user)

    print(f"lectern: {lectern}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {cores} cores", flush=True)
    print("preparing: one untimed render for the chapter texts …", flush=True)
    lectern_run(lectern, work, "prep", text, "mp3")
    chapters, audio = chapters_of(os.path.join(work, "out", "prep", "prep.timings.json"), user)
    with open(os.path.join(user, "titles.txt"), "w") as f:
        f.writelines(f"{n} {t}\n" for n, t in chapters)
    open(os.path.join(user, "m4b.sh"), "w").write(user_m4b_script(chapters))
    open(os.path.join(user, "opus.sh"), "w").write(user_opus_script(chapters))

    def clean_user():
        for f in os.listdir(user):
            if f.endswith((".wav", ".m4b", ".opus")):
                os.remove(os.path.join(user, f))

    def u_m4b():
        clean_user()
        return timed(["bash", "m4b.sh"], work, cwd=user)

    def u_opus():
        clean_user()
        return timed(["bash", "opus.sh"], work, cwd=user)

    cases = [
        ("L-m4b", lambda: lectern_run(lectern, work, "m4b", text, "m4b")[0]),
        ("U-m4b", u_m4b),
        ("L-opus", lambda: lectern_run(lectern, work, "opus", text, "opus")[0]),
        ("U-opus", u_opus),
        ("L-mp3", lambda: lectern_run(lectern, work, "mp3", text, "mp3")[0]),
        ("L-loud", lambda: lectern_run(lectern, work, "loud", text, "mp3", "{ target: -18, true_peak: -1.5 }")[0]),
    ]
    results = {name: [] for name, _ in cases}
    for r in range(args.repeat):
        order = cases if r % 2 == 0 else list(reversed(cases))  # alternate against drift
        for name, run in order:
            wall, cpu = run()
            results[name].append((wall, cpu))
            print(f"round {r + 1}  {name:7} {wall:7.2f} s wall  {cpu:7.2f} s CPU  (load {os.getloadavg()[0]:.2f})", flush=True)

    # Where the user's time goes: each step alone, once (the WAVs stay for the encoders).
    names = " ".join(n for n, _ in chapters)
    clean_user()
    steps = [("espeak-ng loop", f"for c in {names}; do espeak-ng -v {VOICE} -s {WPM} -w $c.wav -f $c.txt; done"),
             ("ffmpeg aac 64k", "ffmpeg -v error -y -f concat -safe 0 -i list.txt -c:a aac -b:a 64k alone.m4b"),
             ("opusenc 32", f"for c in {names}; do opusenc --quiet --bitrate 32 $c.wav $c.opus; done")]
    breakdown = [(label, timed(["bash", "-c", cmd], work, cwd=user)) for label, cmd in steps]

    # Quality, on the last round's outputs (each output is the same in every round).
    print("scoring PESQ …", flush=True)
    u_m4b()  # the last order may have left the Opus files: make both sides' files again, untimed
    shutil.copy(os.path.join(user, "book.m4b"), os.path.join(work, "user-book.m4b"))
    u_opus()
    concat = os.path.join(work, "user-all.wav")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", os.path.join(user, "list.txt"),
                    "-c", "copy", concat], check=True)
    s, w, lag_m4b = pesq_whole(quality.pcm16k(concat), quality.pcm16k(os.path.join(work, "user-book.m4b")))
    q_u_m4b = mean(s, w)
    so, wo, lags = [], [], []
    for n, _ in chapters:
        s, w, lag = pesq_whole(quality.pcm16k(os.path.join(user, f"{n}.wav")), quality.pcm16k(os.path.join(user, f"{n}.opus")))
        so += s; wo += w; lags.append(lag)
    q_u_opus = mean(so, wo)
    s, w, gaps_m4b = pesq_chunks(os.path.join(work, "run-m4b"), os.path.join(work, "out", "m4b", "m4b.m4b"))
    q_l_m4b, n_chunks = mean(s, w), len(gaps_m4b)
    s, w, gaps_opus = pesq_chunks(os.path.join(work, "run-opus"), os.path.join(work, "out", "opus", "opus.opus"))
    q_l_opus = mean(s, w)
    print(f"alignment: the user's M4B lag {lag_m4b} samples at 16 kHz, Opus lags {lags}; Lectern's {n_chunks} chunks "
          f"found {min(gaps_m4b)}…{max(gaps_m4b)} (M4B) and {min(gaps_opus)}…{max(gaps_opus)} (Opus) samples after the previous one's end")

    def kbps(path):
        out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=bit_rate,duration", "-of", "json", path],
                             check=True, capture_output=True, text=True).stdout
        f = json.loads(out)["format"]
        return float(f["bit_rate"]) / 1000, float(f["duration"])

    sizes = {
        "L-m4b": kbps(os.path.join(work, "out", "m4b", "m4b.m4b")),
        "U-m4b": kbps(os.path.join(work, "user-book.m4b")),
        "L-opus": kbps(os.path.join(work, "out", "opus", "opus.opus")),
        "U-opus": (sum(os.path.getsize(os.path.join(user, f"{n}.opus")) for n, _ in chapters) * 8 / 1000 /
                   sum(kbps(os.path.join(user, f"{n}.opus"))[1] for n, _ in chapters),
                   sum(kbps(os.path.join(user, f"{n}.opus"))[1] for n, _ in chapters)),
    }

    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in results.items()}
    print()
    print(f"{os.path.basename(text)}: {len(chapters)} chapters, {audio / 60:.1f} min of audio (Lectern's); voice {VOICE} at {WPM} wpm; "
          f"{cores} cores; medians of {args.repeat} alternating round(s)")
    print()
    print("| | wall s | CPU s | × realtime (wall) | file kbit/s | PESQ-WB |")
    print("|---|---:|---:|---:|---:|---:|")
    rows = [("Lectern `formats: [m4b]`", "L-m4b", q_l_m4b), ("espeak-ng loop + ffmpeg aac 64k", "U-m4b", q_u_m4b),
            ("Lectern `formats: [opus]`", "L-opus", q_l_opus), ("espeak-ng loop + opusenc 32", "U-opus", q_u_opus)]
    for label, k, q in rows:
        wall, cpu = med[k]
        print(f"| {label} | {wall:.1f} | {cpu:.1f} | {audio / wall:.0f} | {sizes[k][0]:.1f} | {q:.3f} |")
    for label, k in [("Lectern `formats: [mp3]`, loudness: off", "L-mp3"),
                     ("Lectern `formats: [mp3]`, loudness −18 LUFS / −1.5 dBTP", "L-loud")]:
        wall, cpu = med[k]
        print(f"| {label} | {wall:.1f} | {cpu:.1f} | {audio / wall:.0f} | | |")
    print()
    for f in ("m4b", "opus"):
        (lw, lc), (uw, uc) = med[f"L-{f}"], med[f"U-{f}"]
        print(f"{f}: Lectern / user's pipeline  wall {lw / uw:.3f}  CPU {lc / uc:.3f}  (goal ≤ 0.6)")
    (ow, oc), (nw, nc) = med["L-mp3"], med["L-loud"]
    print("the user's pipeline step by step (once): " + "; ".join(f"{l} {w:.1f} s wall, {c:.1f} s CPU" for l, (w, c) in breakdown))
    print(f"loudness: CPU {(nc / oc - 1) * 100:+.1f}%  wall {(nw / ow - 1) * 100:+.1f}%  (goal ≤ 5%)")
    print("PESQ-WB: each output against its own encoder's input (Lectern: its chunks' cached PCM; the user: the espeak-ng WAVs)")
    if args.keep:
        print(f"work folder kept: {work}")
    else:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
