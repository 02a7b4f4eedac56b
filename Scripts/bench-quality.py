#!/usr/bin/env python3
"""LAME quality 0–9 at every supported bitrate: encoder CPU time and wideband PESQ on corpus speech.

Usage (from the repository root, with the bench venv that `make bench-deps` makes):
    .venv-bench/bin/python Scripts/bench-quality.py [--repeat N] [--seconds S] [--bitrates 56,64,…]

Speech: a few minutes of corpus text spoken by espeak-ng (22050 Hz mono, the rate Lectern's
engine renders at) with several voices and rates (CLIPS below). Each clip becomes a WAV, the
reference for PESQ and the input of the encoder.

Encoder: the `lame` program with `--quiet -b B --cbr -m m -q Q`, the settings Lectern's
MP3Encoder gives libmp3lame. bench.sh first checks that it writes the same MP3 frames as
Lectern's own encoder (`lectern say` to WAV and to MP3, then `lame` on that WAV) at every bitrate.

CPU time: user + system seconds of the `lame` process (getrusage of the child), REPEAT rounds;
each round encodes every (clip, bitrate, quality) once in an interleaved order, and the table
gives the median over rounds of the summed CPU time of all clips. Wall time is not used: this
machine is shared.

PESQ: wideband P.862.2 (PyPI `pesq`) of the decoded MP3 against the WAV, both resampled to
16 kHz by ffmpeg; the table gives the mean over the clips (and the lowest clip).

Rule: for each bitrate, the recommended quality is the one with the least CPU time whose mean
PESQ is not lower than that of quality 3 (the old default).
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from pesq import pesq

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "text")
BITRATES = [56, 64, 80, 96, 112, 128, 144, 160]  # AudioSettings.validBitrates
QUALITIES = list(range(10))

# (name, voice, words per minute, source, first words of the excerpt)
CLIPS = [
    ("alice en-gb 175", "en-gb", 175, "pg11-alice-in-wonderland.txt", "Alice was beginning to get very tired"),
    ("pride en-us 230", "en-us", 230, "pg1342-pride-and-prejudice.txt", "It is a truth universally acknowledged"),
    ("nowhere en-gb+f3 140", "en-gb+f3", 140, "pg3261-news-from-nowhere.txt", "Up at the League, says a friend"),
    ("french fr 175", "fr", 175, None, None),  # the French paragraphs of Scripts/langid/handwritten.tsv
]


def excerpt(source, start, words):
    if source is None:
        rows = [line.rstrip("\n").split("\t") for line in open(os.path.join(ROOT, "Scripts/langid/handwritten.tsv"), encoding="utf-8")]
        text = " ".join(r[1] for r in rows if len(r) > 1 and r[0] == "fr")
        return text
    text = open(os.path.join(CORPUS, source), encoding="utf-8-sig").read()
    at = text.find(start)
    if at < 0:
        sys.exit(f"bench-quality: {source} no longer contains {start!r}")
    return " ".join(text[at:].split()[:words])


def cpu_of(cmd):
    """User + system CPU seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


MPEG2_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]


def audio_frames(path):
    """The MP3's audio frames after the LAME tag frame (which records the -q setting itself)."""
    data = open(path, "rb").read()
    at = 10 + (data[6] << 21 | data[7] << 14 | data[8] << 7 | data[9]) if data[:3] == b"ID3" else 0
    frames = []
    while at + 4 <= len(data) and data[at] == 0xFF:
        rates = {0: 44100, 1: 48000, 2: 32000}[(data[at + 2] >> 2) & 3] // (1 if data[at + 1] & 0x08 else 2)
        size = 72000 * MPEG2_KBPS[data[at + 2] >> 4] // rates + ((data[at + 2] >> 1) & 1)
        frames.append(data[at:at + size])
        at += size
    return b"".join(frames[1:])


def pcm16k(path):
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-ac", "1", "-ar", "16000", "-f", "s16le", "-"],
                         check=True, stdout=subprocess.PIPE).stdout
    return np.frombuffer(raw, dtype=np.int16).astype(np.float32) / 32768.0


def segments(ref, rate=16000, longest=120, target=60):
    """Cuts a long signal into pieces of about `target` seconds, each cut at the quietest 20 ms
    between 0.75 and 1.25 × target, since the `pesq` package crashes on signals of several minutes."""
    bounds, start, frame = [], 0, rate // 50
    while len(ref) - start > longest * rate:
        lo, hi = start + int(0.75 * target * rate), start + int(1.25 * target * rate)
        energy = np.square(ref[lo:hi][: (hi - lo) // frame * frame].reshape(-1, frame)).sum(axis=1)
        cut = lo + int(np.argmin(energy)) * frame + frame // 2
        bounds.append((start, cut))
        start = cut
    return bounds + [(start, len(ref))]


def pesq_of(ref_wav, mp3):
    """Wideband PESQ of an MP3 against its WAV (the MP3's LAME tag makes the decoded samples line
    up with the WAV's); a long signal scores as the length-weighted mean of its segments."""
    ref, deg = pcm16k(ref_wav), pcm16k(mp3)
    n = min(len(ref), len(deg))
    parts = segments(ref[:n])
    scores = [pesq(16000, ref[a:b], deg[a:b], "wb") for a, b in parts]
    return float(np.average(scores, weights=[b - a for a, b in parts]))


def say_quality(lectern, bitrate, work):
    """The -q whose `lame` frames equal what `lectern say --bitrate B` writes (lowest if several)."""
    text = ("It was the best of times, it was the worst of times, it was the age of wisdom, "
            "it was the age of foolishness; we had everything before us, we had nothing before us.")
    wav, mp3 = f"{work}/say.wav", f"{work}/say-{bitrate}.mp3"
    if not os.path.exists(wav):
        subprocess.run([lectern, "say", text, "--voice", "en-gb", "-o", wav], check=True)
    subprocess.run([lectern, "say", text, "--voice", "en-gb", "--bitrate", str(bitrate), "-o", mp3], check=True)
    theirs, matches = audio_frames(mp3), []
    for q in QUALITIES:
        out = f"{work}/say-{bitrate}-q{q}.mp3"
        subprocess.run(["lame", "--quiet", "-b", str(bitrate), "--cbr", "-m", "m", "-q", str(q), wav, out], check=True)
        if audio_frames(out) == theirs:
            matches.append(q)
    if not matches:
        sys.exit(f"bench-quality: no `lame -b {bitrate} --cbr -m m -q 0…9` writes the frames `lectern say --bitrate {bitrate}` wrote")
    return matches


def same_encoder(lectern, bitrates, work):
    """Shows that `lame` writes the frames Lectern's encoder writes: `lectern say` speaks one text to a
    WAV and (the same samples) to an MP3 through MP3Encoder; `lame` encodes that WAV at -q 0…9, and
    the -q of Lectern's default for that bitrate must give identical audio frames."""
    found = [f"{b}: q{'=q'.join(map(str, say_quality(lectern, b, work)))}" for b in bitrates]
    print(f"lame writes the same audio frames as Lectern's encoder (`lectern say` default quality per kbit/s: "
          f"{', '.join(found)})", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=int(os.environ.get("REPEAT", 3)))
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("CLIP_SECONDS", 90)),
                    help="about how long each clip speaks")
    ap.add_argument("--bitrates", default=os.environ.get("BITRATES", ",".join(map(str, BITRATES))))
    ap.add_argument("--lectern", default=os.path.join(ROOT, ".build/release/lectern"),
                    help="the lectern binary whose encoder `lame` must match")
    ap.add_argument("--jobs", type=int, default=os.cpu_count(), help="parallel PESQ computations")
    ap.add_argument("--which-quality", type=int, metavar="KBPS",
                    help="only print the -q that gives the frames of Lectern's default at KBPS")
    ap.add_argument("--pesq", nargs=2, metavar=("REF.wav", "FILE.mp3"), help="only print one wideband PESQ")
    args = ap.parse_args()
    if args.pesq:
        print(f"{pesq_of(*args.pesq):.3f}")
        return
    if args.which_quality:
        work = tempfile.mkdtemp(prefix="lectern-quality.")
        print(say_quality(args.lectern, args.which_quality, work)[0])
        subprocess.run(["rm", "-rf", work])
        return
    bitrates = [int(b) for b in args.bitrates.split(",")]

    work = tempfile.mkdtemp(prefix="lectern-quality.")
    same_encoder(args.lectern, bitrates, work)
    clips = []
    for i, (name, voice, wpm, source, start) in enumerate(CLIPS):
        text = excerpt(source, start, int(args.seconds * wpm / 60))
        txt, wav = f"{work}/clip{i}.txt", f"{work}/clip{i}.wav"
        open(txt, "w", encoding="utf-8").write(text + "\n")
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(wpm), "-w", wav, "-f", txt], check=True)
        frames = (os.path.getsize(wav) - 44) // 2
        clips.append((name, wav, frames / 22050))
        print(f"clip {i}: {name}, {len(text.split())} words, {frames / 22050:.1f} s", flush=True)
    total_audio = sum(c[2] for c in clips)

    cells = [(b, q) for b in bitrates for q in QUALITIES]
    cpu = {cell: [] for cell in cells}
    for r in range(args.repeat):
        order = cells if r % 2 == 0 else list(reversed(cells))  # alternate the order against drift
        for b, q in order:
            spent = 0.0
            for i, (_, wav, _) in enumerate(clips):
                out = f"{work}/c{i}-b{b}-q{q}.mp3"
                spent += cpu_of(["lame", "--quiet", "-b", str(b), "--cbr", "-m", "m", "-q", str(q), wav, out])
            cpu[(b, q)].append(spent)
        load = os.getloadavg()[0]
        print(f"round {r + 1} of {args.repeat} encoded ({len(cells) * len(clips)} files), load average {load:.2f}", flush=True)

    jobs = [(b, q, i) for b, q in cells for i in range(len(clips))]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        scores = list(pool.map(pesq_of, [clips[i][1] for _, _, i in jobs], [f"{work}/c{i}-b{b}-q{q}.mp3" for b, q, i in jobs]))
    score = {}
    for (b, q, i), s in zip(jobs, scores):
        score.setdefault((b, q), []).append(s)

    print()
    print(f"{len(clips)} clips, {total_audio:.0f} s of speech: " + "; ".join(c[0] for c in clips))
    print(f"CPU = median over {args.repeat} rounds of lame's user+sys seconds for all clips; "
          f"PESQ = wideband, mean over clips (lowest clip)")
    print()
    print("| kbit/s | q | CPU s | × realtime | PESQ mean | PESQ min | vs q3 |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    choice, same_as = {}, {}
    for b in bitrates:
        # Qualities whose audio frames are byte-identical on every clip are one setting (LAME 3.100
        # maps some -q values onto others); their CPU samples are pooled and the lowest -q names it.
        first = {}
        for q in QUALITIES:
            frames = tuple(audio_frames(f"{work}/c{i}-b{b}-q{q}.mp3") for i in range(len(clips)))
            same_as[(b, q)] = first.setdefault(frames, q)
        groups = {q: [p for p in QUALITIES if same_as[(b, p)] == q] for q in set(same_as[(b, p)] for p in QUALITIES)}
        pooled = {q: statistics.median(sum((cpu[(b, p)] for p in groups[q]), [])) for q in groups}
        ref = statistics.mean(score[(b, same_as[(b, 3)])])
        eligible = [q for q in groups if statistics.mean(score[(b, q)]) >= ref]
        choice[b] = min(eligible, key=lambda q: (pooled[q], q))
        for q in QUALITIES:
            c, s = statistics.median(cpu[(b, q)]), score[(b, q)]
            g = same_as[(b, q)]
            mark = ("**chosen**" if g == choice[b] else "q3" if g == same_as[(b, 3)] else "≥ q3" if g in eligible else "lower")
            if g != q:
                mark += f" (frames = q{g})"
            print(f"| {b} | {q} | {c:.2f} | {total_audio / c:.0f} | {statistics.mean(s):.3f} | {min(s):.3f} | {mark} |")
        cpu.update({(b, q): [pooled[q]] for q in groups})
    print()
    for b in bitrates:
        c3, cq = statistics.median(cpu[(b, same_as[(b, 3)])]), statistics.median(cpu[(b, choice[b])])
        print(f"{b} kbit/s: fastest quality with PESQ ≥ q3's is q{choice[b]} "
              f"({cq:.2f} s vs {c3:.2f} s CPU, {cq / c3 * 100:.0f}% of q3; PESQ "
              f"{statistics.mean(score[(b, choice[b])]):.3f} vs {statistics.mean(score[(b, 3)]):.3f})")
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
