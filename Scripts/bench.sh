#!/usr/bin/env bash
# Benchmarks for `make bench`. Usage: Scripts/bench.sh [all|parallel|incremental|quality|formats|scale|neural|serve|faults|firstbuild|reading] (default all).
#
# reading (issue #39): Scripts/bench-reading.py — the books of Bench/reading-books.tsv, each in two or
# three formats (Gutenberg plain text and HTML, a Standard Ebooks EPUB), read by `lectern check` with
# no manifest; a book passes when its formats agree (chapters, titles, words read) with no leak and no
# large skip. Needs the folder .bench-books/ (`Scripts/bench-reading.py gather`); skips without it.
# HOLDOUT=1 reads only the 20 held-out books, FRESH=1 only the fresh validation set; LECTERN=PATH runs another binary (not part of all).
#
# formats (issue #25): Scripts/bench-formats.py — Lectern's `formats: [m4b]` and `[opus]` against the
# pipeline a user types (espeak-ng WAV per chapter, then ffmpeg -c:a aac -b:a 64k with a chapter file,
# or opusenc --bitrate 32), wall and CPU time and wideband PESQ; and the cost of `loudness:` (not part
# of all). LECTERN=PATH runs another binary; REPEAT rounds (default 3).
#
# neural (issue #16): Scripts/bench-neural.sh — the Piper voice against espeak-ng, 1 and nproc workers:
# real-time factor per worker and for the machine, worker CPU, peak RSS (not part of all).
#
# faults (issue #38): Scripts/bench-faults.py — the standing fault suite: every way a run or the service
# was found to lose, leak or fall over (a user's file in a folder Lectern replaces, files that are not text,
# kill -9 of a run and of serve, a full disk, half-open connections, links out of an upload, simultaneous
# auditions, server paths in errors, empty upload parts, PATCH/start races), replayed; prints a table of
# trials held and broken (not part of all).
#
# serve (issue #27): Scripts/bench-serve.py — `lectern serve` under wrk (64 connections) against the
# status endpoint and Range requests of a large MP3 while a book renders, kill -9 during an upload,
# 1,000 event-stream reconnects (file descriptors, memory), malformed requests (not part of all).
#
# scale (issue #15): Scripts/bench-scale.sh — 1, 2 and 4 worker processes on a private PostgreSQL
# server; throughput, coordinator and database CPU per chunk (not part of all).
#
# quality (issue #14): Scripts/bench-quality.py — encoder CPU time and wideband PESQ for LAME
# quality 0–9 at every supported bitrate on corpus speech; needs `make bench-deps` (.venv-bench).
#
# parallel (issue #3) prints medians and ratios measured in one run:
#   A  lectern run of a fresh job (empty output, new job store): the whole book, MP3 + JSON sidecar
#   B  the naive parallel pipeline: the same chapters' text, xargs -P $(nproc) running
#      espeak-ng -w ch.wav -f ch.txt && lame (same voice, rate and LAME settings as A)
#   B′ the naive pipeline as a user types it: xargs -P $(nproc) running
#      espeak-ng -v … -s … --stdout -f ch.txt | lame -b 64 --cbr -m m - ch.mp3 (LAME's default quality)
#   C  the limit: serial espeak-ng + lame over the whole text on one core, divided by the cores
# A, B, B′ and C alternate, REPEAT times (default 3); medians are reported, then the wideband PESQ
# of chapter 1 as Lectern writes it (`lectern say` to WAV and MP3) and as B′ writes it. Then A's peak RSS on the
# book repeated 4 times (one manifest, four sources; FOURX=0 skips it). SERIAL=0 skips C.
#
# incremental (issue #4), REPEAT rounds of: F a full render of a fresh job; N a re-run with no
# change; E a re-run after one paragraph of chapter 30 was edited. Prints N/F and E/F.
set -euo pipefail
MODE=${1:-all}
[ "$MODE" = scale ] && exec "$(dirname "$0")/bench-scale.sh"
[ "$MODE" = neural ] && exec "$(dirname "$0")/bench-neural.sh"
[ "$MODE" = firstbuild ] && exec "$(dirname "$0")/bench-firstbuild.sh"
[ "$MODE" = faults ] && exec python3 "$(dirname "$0")/bench-faults.py" --lectern "$(dirname "$0")/../.build/release/lectern"
[ "$MODE" = reading ] && exec python3 "$(dirname "$0")/bench-reading.py" run --lectern "${LECTERN:-$(dirname "$0")/../.build/release/lectern}" ${HOLDOUT:+--holdout} ${FRESH:+--fresh}
[ "$MODE" = serve ] && exec python3 "$(dirname "$0")/bench-serve.py" --lectern "$(dirname "$0")/../.build/release/lectern"
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN=$ROOT/.build/release/lectern
BOOK=${BOOK:-$ROOT/../shared/corpus/text/pg1342-pride-and-prejudice.txt}
REPEAT=${REPEAT:-3}
CORES=$(nproc)
VOICE=en-gb; WPM=175
if [ "$MODE" = formats ]; then  # the demo's committed text: no corpus needed
  PY=$ROOT/.venv-bench/bin/python
  "$PY" -c "import pesq, numpy" 2>/dev/null || { echo "bench: PESQ is missing (make bench-deps installs it into .venv-bench/)"; exit 1; }
  command -v /usr/bin/time >/dev/null || { echo "bench: GNU time is missing (apt-get install time)"; exit 1; }
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $CORES cores"
  exec "$PY" Scripts/bench-formats.py --lectern "${LECTERN:-$BIN}"
fi
if [ ! -f "$BOOK" ]; then echo "bench: $BOOK not found (the shared corpus belongs beside the clone); skipping"; exit 0; fi
command -v /usr/bin/time >/dev/null || { echo "bench: GNU time is missing (apt-get install time)"; exit 1; }

PY=$ROOT/.venv-bench/bin/python
if [ "$MODE" != incremental ] && ! "$PY" -c "import pesq, numpy" 2>/dev/null; then
  echo "bench: PESQ is missing (make bench-deps installs it into .venv-bench/)"; exit 1
fi

if [ "$MODE" = all ] || [ "$MODE" = quality ]; then
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $CORES cores"
  "$PY" Scripts/bench-quality.py --lectern "$BIN"
  [ "$MODE" = quality ] && exit 0
fi

WORK=$(mktemp -d /tmp/lectern-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
manifest() {  # manifest NAME COPIES
  { echo "title: Pride and Prejudice"; echo "output: out/$1"; echo "sources:"
    for _ in $(seq "$2"); do
      echo "  - path: $BOOK"
      echo "    chapters: { heading: '^((?:CHAPTER|Chapter) [IVXLC]+)\\.?\\]?\$', skip_before_first: true }"
      echo "    skip: ['^\\[(Illustration|_Copyright)']"
    done
    echo "voice: { name: $VOICE, wpm: $WPM }"; echo "audio: { bitrate: 64 }"; echo "timings: [json]"; } > "$WORK/$1.yml"
}
# A uses Lectern's default quality; B uses the -q that gives the same frames (checked, not assumed).
QUALITY=; [ "$MODE" = incremental ] || QUALITY=$("$PY" Scripts/bench-quality.py --lectern "$BIN" --which-quality 64)
LAME_ARGS=(--quiet -b 64 --cbr -m m -q "$QUALITY")
manifest book 1
manifest book4 4

if [ "$MODE" = all ] || [ "$MODE" = incremental ]; then
  # The book's text in the work folder, so that one paragraph can be edited.
  cp "$BOOK" "$WORK/pride.txt"
  BOOK_ORIG=$BOOK; BOOK=$WORK/pride.txt; manifest inc 1; BOOK=$BOOK_ORIG
  PARAGRAPH="From the drawing-room they could distinguish nothing in the lane,"
  EDITED="From the drawing-room, as Elizabeth soon learned to her amusement, they could distinguish nothing at all in the lane,"
  grep -qF "$PARAGRAPH" "$WORK/pride.txt" || { echo "bench: the paragraph to edit is not in $BOOK"; exit 1; }
  inc_run() { /usr/bin/time -f "%e" -o "$WORK/time.txt" "$BIN" run --quiet "$WORK/inc.yml" --db "$WORK/inc.sqlite" >/dev/null; cat "$WORK/time.txt"; }
  declare -a F N E
  for i in $(seq "$REPEAT"); do
    cp "$BOOK" "$WORK/pride.txt"
    rm -rf "$WORK/out/inc" "$WORK"/inc.sqlite* "$WORK/cache"
    t=$(inc_run); F+=("$t"); echo "round $i  F full render      ${t}s"
    t=$(inc_run); N+=("$t"); echo "round $i  N no change        ${t}s"
    python3 - "$WORK/pride.txt" "$PARAGRAPH" "$EDITED" <<'PY'
import sys
path, old, new = sys.argv[1:4]
text = open(path, encoding="utf-8").read()
open(path, "w", encoding="utf-8").write(text.replace(old, new, 1))
PY
    t=$(inc_run); E+=("$t"); echo "round $i  E one paragraph    ${t}s"
    python3 -c "import sqlite3, sys; r = sqlite3.connect(sys.argv[1]).execute('SELECT chunksRendered, chunkCount FROM run ORDER BY id DESC LIMIT 1').fetchone(); print(f'round $i  E rendered {r[0]} of {r[1]} chunks')" "$WORK/inc.sqlite"
  done
  python3 - "${F[*]}" "${N[*]}" "${E[*]}" <<'PY'
import statistics, sys
f, n, e = ([float(x) for x in s.split()] for s in sys.argv[1:4])
mf, mn, me = statistics.median(f), statistics.median(n), statistics.median(e)
print()
print(f"incremental, Pride and Prejudice; medians of {len(f)} rounds")
print(f"F  full render                  {mf:8.2f} s")
print(f"N  re-run, no change            {mn:8.2f} s   N/F = {mn/mf*100:.2f}%  (target ≤ 2%)")
print(f"E  re-run, one paragraph edited {me:8.2f} s   E/F = {me/mf*100:.2f}%  (target ≤ 5%)")
PY
  [ "$MODE" = incremental ] && exit 0
fi

# Seconds, peak RSS (KiB) and CPU seconds (user + system of the command and every process it
# waited for) of a command: "SECONDS KIB CPU".
cpu_of_time() { awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$WORK/time.txt"; }
measure() { /usr/bin/time -f "%e %M %U %S" -o "$WORK/time.txt" "$@" >/dev/null; cpu_of_time; }

# Seconds and peak RSS (KiB, the largest of lectern and its workers), plus lectern's own --stats line.
run_a() {
  rm -rf "$WORK/out/$1" "$WORK/$1.sqlite"*
  /usr/bin/time -f "%e %M %U %S" -o "$WORK/time.txt" "$BIN" run --quiet --stats "$WORK/$1.yml" --db "$WORK/$1.sqlite" 2>"$WORK/stats.txt" >/dev/null
  echo "$(cpu_of_time) $(sed -n 's/peak RSS: lectern \([0-9]*\) MB, largest worker \([0-9]*\) MB/\1 \2/p' "$WORK/stats.txt")"
}

# One untimed run of A gives the exact chapter texts (from its sidecar) for B and C.
echo "preparing: one untimed render to extract the chapter texts …"
run_a book >/dev/null
mkdir -p "$WORK/ch"
python3 - "$WORK/out/book/book.timings.json" "$WORK/ch" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
everything = []
for c in doc["chapters"]:
    text = "\n\n".join(p["text"] for p in c["paragraphs"])
    open(f"{sys.argv[2]}/ch{c['number']:03d}.txt", "w").write(text + "\n")
    everything.append(text)
open(f"{sys.argv[2]}/../all.txt", "w").write("\n\n".join(everything) + "\n")
PY
AUDIO=$(python3 -c "import json; print(json.load(open('$WORK/out/book/book.timings.json'))['durationMs']/1000)")

run_b() {
  rm -f "$WORK"/ch/*.wav "$WORK"/ch/*.mp3
  (cd "$WORK/ch" && measure bash -c "ls ch*.txt | xargs -P $CORES -I{} sh -c 'espeak-ng -v $VOICE -s $WPM -w {}.wav -f {} && lame ${LAME_ARGS[*]} {}.wav {}.mp3'")
}
run_b2() {
  rm -f "$WORK"/ch/*.naive.mp3
  (cd "$WORK/ch" && measure bash -c "ls ch*.txt | xargs -P $CORES -I{} sh -c 'espeak-ng -v $VOICE -s $WPM --stdout -f {} | lame -b 64 --cbr -m m - {}.naive.mp3' 2>/dev/null")
}
run_c() {
  rm -f "$WORK/all.wav" "$WORK/all.mp3"
  measure bash -c "espeak-ng -v $VOICE -s $WPM -w '$WORK/all.wav' -f '$WORK/all.txt' && lame ${LAME_ARGS[*]} '$WORK/all.wav' '$WORK/all.mp3'"
}

declare -a A B B2 C RSS ACPU BCPU B2CPU
for i in $(seq "$REPEAT"); do
  read -r t m cpu parent worker < <(run_a book); A+=("$t"); RSS+=("$m"); ACPU+=("$cpu")
  echo "round $i  A ${t}s (CPU ${cpu}s; peak RSS ${m} KiB; lectern ${parent} MB, largest worker ${worker} MB)"
  read -r t _ cpu < <(run_b); B+=("$t"); BCPU+=("$cpu"); echo "round $i  B ${t}s (CPU ${cpu}s)"
  read -r t _ cpu < <(run_b2); B2+=("$t"); B2CPU+=("$cpu"); echo "round $i  B′ ${t}s (CPU ${cpu}s)"
  if [ "${SERIAL:-1}" = 1 ]; then read -r t _ < <(run_c); C+=("$t"); echo "round $i  C ${t}s serial"; else C+=(nan); fi
done
if [ "${FOURX:-1}" = 1 ]; then
  read -r T4 RSS4 _ parent4 worker4 < <(run_a book4)
  echo "4× book  A ${T4}s (peak RSS ${RSS4} KiB; lectern ${parent4} MB, largest worker ${worker4} MB)"
else
  T4=nan; RSS4=nan; echo "4× book  skipped (FOURX=0)"
fi

# Wideband PESQ of chapter 1, each file against its own WAV: Lectern's (`lectern say` speaks the
# chapter once to a WAV and once, the same samples, through Lectern's encoder to an MP3) and B′'s.
espeak-ng -v "$VOICE" -s "$WPM" -w "$WORK/ch/ch001.ref.wav" -f "$WORK/ch/ch001.txt"
"$BIN" say "$(cat "$WORK/ch/ch001.txt")" --voice "$VOICE" --rate 0.5 -o "$WORK/ch/ch001.say.wav"
"$BIN" say "$(cat "$WORK/ch/ch001.txt")" --voice "$VOICE" --rate 0.5 -o "$WORK/ch/ch001.say.mp3"
PESQ_A=$("$PY" Scripts/bench-quality.py --pesq "$WORK/ch/ch001.say.wav" "$WORK/ch/ch001.say.mp3")
PESQ_B2=$("$PY" Scripts/bench-quality.py --pesq "$WORK/ch/ch001.ref.wav" "$WORK/ch/ch001.txt.naive.mp3")

python3 - "$CORES" "$AUDIO" "${A[*]}" "${B[*]}" "${C[*]}" "${RSS[*]}" "$T4" "$RSS4" "${B2[*]}" "$QUALITY" "$PESQ_A" "$PESQ_B2" "${ACPU[*]}" "${BCPU[*]}" "${B2CPU[*]}" <<'PY'
import statistics, sys
cores, audio = int(sys.argv[1]), float(sys.argv[2])
a, b, c, rss = ([float(x) for x in s.split()] for s in sys.argv[3:7])
t4, rss4 = float(sys.argv[7]), float(sys.argv[8])
b2, quality, pesq_a, pesq_b2 = [float(x) for x in sys.argv[9].split()], sys.argv[10], sys.argv[11], sys.argv[12]
ma, mb, mc = statistics.median(a), statistics.median(b), statistics.median(c) / cores
mb2 = statistics.median(b2)
acpu, bcpu, b2cpu = (statistics.median(float(x) for x in s.split()) for s in sys.argv[13:16])
mr = statistics.median(rss) / 1024
print()
print(f"book: Pride and Prejudice, {audio/3600:.2f} h of audio; {cores} cores; medians of {len(a)} alternating rounds")
print(f"A  lectern run                 {ma:8.1f} s   ({audio/ma:.0f} audio s per wall s)")
print(f"B  xargs -P{cores} espeak-ng + lame  {mb:8.1f} s   (lame -q {quality}, Lectern's default)")
print(f"B′ xargs -P{cores} espeak-ng | lame  {mb2:8.1f} s   (lame -b 64 --cbr -m m, LAME's default quality)")
print(f"C  serial espeak-ng + lame / {cores} {mc:8.1f} s   (serial {statistics.median(c):.1f} s)")
print(f"A/B = {ma/mb:.3f}   (target ≤ 0.85)")
print(f"A/B′ = {ma/mb2:.3f}  (target ≤ 0.6)")
print(f"CPU seconds (user+sys, all processes): A {acpu:.1f}, B {bcpu:.1f}, B′ {b2cpu:.1f}; "
      f"A/B = {acpu/bcpu:.3f}, A/B′ = {acpu/b2cpu:.3f}")
print(f"A/C = {ma/mc:.3f}   (target ≤ 1.1)")
print(f"PESQ (wideband, chapter 1): A {pesq_a} (Lectern, q{quality}), B′ {pesq_b2} (LAME's default)")
print(f"A peak RSS        {mr:6.1f} MB   (target ≤ 150 MB)")
print(f"A peak RSS at 4×  {rss4/1024:6.1f} MB   ({(rss4/1024)/mr*100-100:+.1f}%, target ≤ +10%; 4× took {t4:.1f} s)")
PY
