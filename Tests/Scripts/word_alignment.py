#!/usr/bin/env python3
"""Word starts of a Lectern timing sidecar against an independent forced aligner (CMU PocketSphinx).

Decodes the book's audio with ffmpeg (16 kHz mono), picks sentences of the sidecar at random (a fixed
seed), aligns each sentence's words to its stretch of audio with PocketSphinx's bundled en-us model
(`Decoder.set_align_text`), and compares every word's start in the sidecar with the aligner's.
Sentences the aligner cannot take as written are left out and counted: a word missing from its
dictionary, a stretch read as a lexicon or spoken form says (the sidecar's `pronounced`), digits.

    PYTHONPATH=.python python3 Tests/Scripts/word_alignment.py BOOK.timings.json [--audio BOOK.mp3]
        [--sentences 60] [--seed 1] [--json]

Prints a summary (or JSON with --json): words compared, how many the sidecar flags estimated,
the median, p90, p95 and largest start error in ms, and the share within 50 ms.
"""

import argparse
import array
import json
import os
import random
import re
import subprocess
import sys

RATE = 16000
FRAME_MS = 10  # PocketSphinx's frame
MARGIN_MS = 400  # audio kept around a sentence, at most half way to its neighbours


def fail(message):
    print(f"word_alignment: {message}", file=sys.stderr)
    sys.exit(2)


def utf16_slice(text, offset, length):
    units = text.encode("utf-16-le")
    return units[2 * offset: 2 * (offset + length)].decode("utf-16-le", errors="replace")


def tokens(word):
    """The dictionary words a sidecar word is said as: lowercased, split at hyphens and dashes,
    without the punctuation around it (an apostrophe inside a word stays)."""
    word = word.replace("\u2019", "'").replace("\u2018", "'").lower()
    result = []
    for piece in re.split(r"[-\u2010-\u2015/]+", word):
        piece = re.sub(r"^[^a-z0-9]+|[^a-z0-9]+$", "", piece)
        if piece:
            result.append(piece)
    return result


def sentences_of(sidecar):
    """Every sentence of the book in time order: (start, end, words, pronounced) with each word as
    (start ms, estimated, text)."""
    result = []
    for chapter in sidecar["chapters"]:
        for paragraph in chapter["paragraphs"]:
            text = paragraph["text"]
            pronounced = [(p["offset"], p["offset"] + p["length"]) for p in paragraph.get("pronounced", [])]
            for sentence in paragraph.get("sentences", []):
                words = [(w["start"], bool(w.get("estimated", False)), utf16_slice(text, w["offset"], w["length"]),
                          w["offset"], w["offset"] + w["length"]) for w in sentence.get("words", [])]
                if not words:
                    continue
                spoken_as_written = not any(a < w[4] and w[3] < b for w in words for a, b in pronounced)
                result.append({"start": sentence["start"], "end": sentence["end"], "words": words,
                               "as_written": spoken_as_written})
    result.sort(key=lambda s: s["start"])
    return result


def decode(audio):
    try:
        out = subprocess.run(["ffmpeg", "-v", "error", "-i", audio, "-f", "s16le", "-ac", "1", "-ar", str(RATE), "-"],
                             check=True, capture_output=True)
    except FileNotFoundError:
        fail("ffmpeg is not installed")
    except subprocess.CalledProcessError as e:
        fail(f"ffmpeg cannot decode {audio}: {e.stderr.decode(errors='replace').strip()}")
    return out.stdout


def quietest(pcm, start_ms, end_ms, latest):
    """The start (ms) of the quietest 10 ms frame in start_ms..end_ms; of equally quiet frames the
    latest or the earliest."""
    best, best_energy = max(start_ms, 0), None
    for ms in range(max(start_ms, 0), max(end_ms, 0) + 1, FRAME_MS):
        frame = pcm[ms * RATE // 1000 * 2: (ms + FRAME_MS) * RATE // 1000 * 2]
        if len(frame) < 2:
            break
        samples = memoryview(frame).cast("h")
        energy = sum(v * v for v in samples)
        if best_energy is None or energy < best_energy or (latest and energy == best_energy):
            best, best_energy = ms, energy
    return best


def dithered(chunk, seed):
    """The 16-bit samples with ±1 of seeded noise: the aligner's features of digital silence (the
    synthesizers' pauses are exact zeros) are the log of nothing, which no silence it was trained
    on resembles, and it then fails to end a sentence in a pause."""
    samples = array.array("h", chunk)
    noise = random.Random(seed).choices((-1, 0, 1), k=len(samples))
    return array.array("h", (max(-32768, min(32767, v + n)) for v, n in zip(samples, noise))).tobytes()


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sidecar")
    parser.add_argument("--audio", help="the book's audio (default: the sidecar's `audio`, beside it)")
    parser.add_argument("--sentences", type=int, default=60, help="sentences to align (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-words", type=int, default=3, help="shortest sentence taken (default 3 words)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        from pocketsphinx import Decoder
    except ImportError:
        fail("the Python package pocketsphinx is missing (make test installs it into .python/)")
    with open(args.sidecar, encoding="utf-8") as f:
        sidecar = json.load(f)
    audio = args.audio or os.path.join(os.path.dirname(os.path.abspath(args.sidecar)), sidecar["audio"])
    pcm = decode(audio)
    total_ms = len(pcm) // 2 * 1000 // RATE

    # Its default beams: wider ones (which a sentence over ~14 s needs) let it end more sentences
    # early, and are slower; a sentence it gives up on is counted and replaced by another.
    decoder = Decoder(samprate=RATE, loglevel="FATAL")
    sentences = sentences_of(sidecar)
    left_out = {"spoken otherwise": 0, "not in the dictionary": 0, "too short": 0}
    usable = []
    for i, s in enumerate(sentences):
        words = [(start, estimated, tokens(text)) for start, estimated, text, _, _ in s["words"]]
        words = [w for w in words if w[2]]
        if len(words) < args.min_words:
            left_out["too short"] += 1
        elif not s["as_written"] or any(re.search(r"\d", t) for w in words for t in w[2]):
            left_out["spoken otherwise"] += 1
        elif any(decoder.lookup_word(t) is None for w in words for t in w[2]):
            left_out["not in the dictionary"] += 1
        else:
            usable.append((i, words))
    # In a random order (seeded) until enough sentences are aligned: the aligner gives up on some
    # sentences of synthetic speech (it ends them in silence before their last words); those are
    # counted, not compared.
    order = random.Random(args.seed).sample(usable, len(usable))

    errors, estimated, failed, aligned = [], 0, 0, 0
    for i, words in order:
        if aligned == args.sentences:
            break
        s = sentences[i]
        # The stretch runs from the quietest 10 ms before the sentence to the quietest before the
        # next one (within MARGIN_MS of the sidecar's times): a pause, wherever exactly it is.
        after = sentences[i + 1]["start"] if i + 1 < len(sentences) else total_ms
        lo = quietest(pcm, s["start"] - MARGIN_MS, s["start"], latest=True)
        hi = quietest(pcm, max(after - MARGIN_MS, s["start"]), after, latest=True)
        chunk = dithered(pcm[lo * RATE // 1000 * 2: hi * RATE // 1000 * 2], seed=i)
        decoder.set_align_text(" ".join(t for w in words for t in w[2]))
        decoder.start_utt()
        decoder.process_raw(chunk, full_utt=True)
        decoder.end_utt()
        segments = [seg for seg in decoder.seg() or [] if not (seg.word.startswith("<") or seg.word.startswith("["))]
        if len(segments) != sum(len(w[2]) for w in words):
            failed += 1
            continue
        aligned += 1
        k = 0
        for start, flagged, parts in words:
            errors.append(abs(start - (lo + segments[k].start_frame * FRAME_MS)))
            estimated += flagged
            k += len(parts)

    summary = {
        "sentences": aligned, "alignmentFailed": failed, "leftOut": left_out,
        "words": len(errors), "estimated": estimated,
        "medianMs": percentile(errors, 0.5), "p90Ms": percentile(errors, 0.9), "p95Ms": percentile(errors, 0.95),
        "maxMs": max(errors) if errors else float("nan"),
        "within50": sum(e <= 50 for e in errors) / len(errors) if errors else 0.0,
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{summary['sentences']} sentences ({failed} not aligned; left out: {left_out}), {len(errors)} words "
              f"({len(errors) - estimated} exact + {estimated} estimated): median {summary['medianMs']:.0f} ms, "
              f"p90 {summary['p90Ms']:.0f} ms, p95 {summary['p95Ms']:.0f} ms, max {summary['maxMs']:.0f} ms, "
              f"{100 * summary['within50']:.0f} % within 50 ms")


if __name__ == "__main__":
    main()
