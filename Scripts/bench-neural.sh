#!/usr/bin/env bash
# `make bench BENCH=neural` (issue #16): the Piper voice (en_US-joe-medium through onnxruntime,
# installed by `make piper`) against espeak-ng on the same chapters, with 1 and $(nproc) worker
# processes, each render from scratch (--force, a fresh store). Measured per render: wall
# seconds, audio seconds, the real-time factor of the whole machine (wall / audio) and per worker
# (workers × wall / audio: what one worker process, one onnxruntime thread, takes per second of
# audio), the CPU of the workers, and the peak RSS of the coordinating process and of its largest
# worker (`lectern run --stats`). No quality figure: no offline MOS predictor is installed here,
# and none may be downloaded.
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
  done
done
