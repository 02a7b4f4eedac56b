#!/usr/bin/env bash
# `make bench BENCH=scale` (issue #15): many worker processes render one book through a private
# PostgreSQL server. For N in $COUNTS (default "1 2 4") worker processes (`lectern worker --slots 1`,
# each in its own folder with its own .lectern/, as separate hosts would be) and REPEAT rounds
# (default 1), everything fresh (database, shared chunk folder, caches), so each N renders the
# same chunks from scratch. A coordinator `lectern run --workers 0` publishes the book's chunks
# and waits; measured:
#   wall seconds of the coordinator's run, chunks rendered, chunks/s, audio hours per hour;
#   coordinator CPU (user+sys, /usr/bin/time) in all and per chunk;
#   worker CPU per chunk (user+sys of every process of each worker's tree, /proc, before/after);
#   database per chunk: CPU of the postmaster and all its children (/proc: utime+stime+cutime+
#   cstime of the live processes, before/after), transactions (pg_stat_database xact_commit) and
#   rows written (tup_inserted+tup_updated+tup_deleted), connections to the database while the
#   workers wait, and the database's CPU in the 11 s the N registered workers sit idle before
#   the run (heartbeats and polls: the cost of a host that renders nothing); bytes written to the shared chunk folder per chunk and per audio hour.
# Medians over the rounds are printed as a Markdown table. docs/SCALING.md turns them into a model.
#
#   BOOK=path.txt   another text (same manifest as Scripts/bench.sh)
#   SHORT=1         chapters 1–5 only, a quick check
#   REPEAT=2        rounds per N          COUNTS="1 2"   the worker counts
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN=${LECTERN_BIN:-$ROOT/.build/release/lectern}  # LECTERN_BIN: another build
BOOK=${BOOK:-$ROOT/../shared/corpus/text/pg1342-pride-and-prejudice.txt}
REPEAT=${REPEAT:-1}
COUNTS=${COUNTS:-"1 2 4"}
SHORT=${SHORT:-0}
CORES=$(nproc)
TICK=$(getconf CLK_TCK)
VOICE=en-gb; WPM=175
if [ ! -f "$BOOK" ]; then echo "bench: $BOOK not found (the shared corpus belongs beside the clone); skipping"; exit 0; fi
[ -x "$BIN" ] || { echo "bench: $BIN is missing (make release)"; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "bench: GNU time is missing (apt-get install time)"; exit 1; }
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$PGBIN/initdb" ] || { echo "bench: no PostgreSQL server (apt-get install postgresql)"; exit 1; }
command -v psql >/dev/null || { echo "bench: psql is missing (apt-get install postgresql-client)"; exit 1; }

# A short folder: the server's Unix socket path may not exceed 107 bytes.
WORK=$(mktemp -d /tmp/lectern-scale.XXXXXX)
PG=$WORK/pg
WORKER_PIDS=()
POSTMASTER=
cleanup() {
  for pid in "${WORKER_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${WORKER_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$POSTMASTER" ]; then kill -INT "$POSTMASTER" 2>/dev/null || true; wait "$POSTMASTER" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# initdb and postgres refuse to run as root: as root they run as user 1000 of a new user
# namespace (as Tests/Support/PostgresTestServer.swift does).
AS=(); [ "$(id -u)" = 0 ] && AS=(unshare -U --map-user=1000 --map-group=1000)
mkdir -p "$PG"
"${AS[@]}" "$PGBIN/initdb" -D "$PG/data" -U lectern -A trust -E UTF8 --locale=C --no-instructions >"$PG/initdb.log" 2>&1 \
  || { cat "$PG/initdb.log"; exit 1; }
# Default durability (fsync, synchronous_commit on): the database's cost as a real one would have it.
"${AS[@]}" "$PGBIN/postgres" -D "$PG/data" -k "$PG" -c listen_addresses= -c max_connections=100 >"$PG/server.log" 2>&1 </dev/null &
POSTMASTER=$!
psql_() { psql -h "$PG" -U lectern -X -q -A -t -v ON_ERROR_STOP=1 "$@"; }
for _ in $(seq 300); do psql_ -d postgres -c 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.1; done
psql_ -d postgres -c 'SELECT 1' >/dev/null || { cat "$PG/server.log"; exit 1; }
PGVERSION=$(psql_ -d postgres -c 'SHOW server_version')

if [ "$SHORT" = 1 ]; then  # chapters 1–5: everything before the sixth heading
  cut_at=$(grep -nE '^((CHAPTER|Chapter) [IVXLC]+)\.?\]?$' "$BOOK" | sed -n 6p | cut -d: -f1)
  head -n "$((cut_at - 1))" "$BOOK" >"$WORK/short.txt"; BOOK=$WORK/short.txt
fi
manifest() {  # manifest FILE — the manifest of Scripts/bench.sh
  { echo "title: Pride and Prejudice"; echo "output: out/book"; echo "sources:"
    echo "  - path: $BOOK"
    echo "    chapters: { heading: '^((?:CHAPTER|Chapter) [IVXLC]+)\\.?\\]?\$', skip_before_first: true }"
    echo "    skip: ['^\\[(Illustration|_Copyright)']"
    echo "voice: { name: $VOICE, wpm: $WPM }"; echo "audio: { bitrate: 64 }"; echo "timings: [json]"; } >"$1"
}

# CPU seconds of the given processes and all their live descendants: utime+stime+cutime+cstime
# of each live process (the CPU of children already reaped is in their parent's cutime/cstime).
cpu_tree() {
  python3 - "$TICK" "$@" <<'PY'
import os, sys
tick, roots = int(sys.argv[1]), {int(p) for p in sys.argv[2:]}
stats = {}
for d in os.listdir("/proc"):
    if d.isdigit():
        try: s = open(f"/proc/{d}/stat").read()
        except OSError: continue
        f = s[s.rindex(")") + 2:].split()
        stats[int(d)] = (int(f[1]), sum(int(x) for x in f[11:15]))  # ppid; utime stime cutime cstime
children = {}
for pid, (ppid, _) in stats.items(): children.setdefault(ppid, []).append(pid)
total, todo = 0, [p for p in roots if p in stats]
while todo:
    pid = todo.pop(); total += stats[pid][1]; todo += children.get(pid, [])
print(f"{total / tick:.2f}")
PY
}
sum_() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a + b }'; }
workers_registered() {
  "$BIN" status --json --store "$1" --chunks "$2" 2>/dev/null | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["workers"]))' || echo 0
}
db_counters() {  # "XACTS ROWS" of database $1 (read from another database, so it does not count)
  psql_ -d postgres -F ' ' -c "SELECT xact_commit + xact_rollback, tup_inserted + tup_updated + tup_deleted FROM pg_stat_database WHERE datname = '$1'"
}

echo "scale: $BIN, PostgreSQL $PGVERSION, $CORES cores, book $(basename "$BOOK")$([ "$SHORT" = 1 ] && echo ' (SHORT: chapters 1–5)'), REPEAT=$REPEAT"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
RESULTS=$WORK/results.tsv; : >"$RESULTS"
for round in $(seq "$REPEAT"); do
  for n in $COUNTS; do
    db=scale_${n}_$round
    psql_ -d postgres -c "CREATE DATABASE $db" >/dev/null
    url="postgres://lectern@/$db?host=$PG"
    run=$WORK/$db; chunks=$run/chunks
    mkdir -p "$chunks" "$run/coord/.lectern"
    manifest "$run/coord/book.yml"
    WORKER_PIDS=()
    for w in $(seq "$n"); do
      mkdir -p "$run/w$w/.lectern"
      (cd "$run/w$w" && exec "$BIN" worker --store "$url" --chunks "$chunks" --slots 1 2>"$run/w$w.log") &
      WORKER_PIDS+=($!)
    done
    for _ in $(seq 600); do [ "$(workers_registered "$url" "$chunks")" -ge "$n" ] && break; sleep 0.1; done
    [ "$(workers_registered "$url" "$chunks")" -ge "$n" ] || { echo "bench: only $(workers_registered "$url" "$chunks") of $n workers registered"; tail "$run"/w*.log; exit 1; }
    # Pending statistics of idle backends reach pg_stat_database within 10 s: wait them out, so
    # that the schema's creation and the workers' registration are not counted.
    idle0=$(cpu_tree "$POSTMASTER"); sleep 11; idle1=$(cpu_tree "$POSTMASTER")
    connections=$(psql_ -d postgres -c "SELECT count(*) FROM pg_stat_activity WHERE datname = '$db'")
    read -r x0 r0 < <(db_counters "$db")
    pg0=$(cpu_tree "$POSTMASTER"); w0=$(cpu_tree "${WORKER_PIDS[@]}")
    (cd "$run/coord" && /usr/bin/time -f "%e %U %S" -o "$run/time.txt" \
      "$BIN" run book.yml --store "$url" --chunks "$chunks" --workers 0 --json --stats >"$run/run.json" 2>"$run/run.err") \
      || { echo "bench: the coordinator failed"; cat "$run/run.err"; tail "$run"/w*.log; exit 1; }
    pg1=$(cpu_tree "$POSTMASTER"); w1=$(cpu_tree "${WORKER_PIDS[@]}")
    done_by=$("$BIN" status --json --store "$url" --chunks "$chunks" | python3 -c 'import json, sys; print(",".join(str(w["chunksDone"]) for w in json.load(sys.stdin)["workers"]))')
    for pid in "${WORKER_PIDS[@]}"; do kill -TERM "$pid"; done
    for pid in "${WORKER_PIDS[@]}"; do wait "$pid" || echo "bench: worker $pid exited with $?"; done
    WORKER_PIDS=()
    sleep 1  # the workers' backends flush their statistics as they exit
    read -r x1 r1 < <(db_counters "$db")
    bytes=$(find "$chunks" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
    read -r wall user sys <"$run/time.txt"
    read -r chunk_count audio < <(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))[0]; print(r["chunksRendered"], r["durationSeconds"])' "$run/run.json")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$wall" "$chunk_count" "$audio" \
      "$(sum_ "$user" "$sys")" "$(sum_ "$w1" "-$w0")" "$(sum_ "$pg1" "-$pg0")" \
      "$((x1 - x0))" "$((r1 - r0))" "$bytes" "$connections" "$(sum_ "$idle1" "-$idle0")" "$done_by" >>"$RESULTS"
    echo "round $round  N=$n  $(tail -1 "$RESULTS" | awk -F'\t' '{ printf "%.1f s, %d chunks, coordinator CPU %.2f s, workers %.1f s, database %.2f s, %d transactions, %d rows, %d connections, idle database %.2f s in 11 s, chunks per worker %s", $2, $3, $5, $6, $7, $8, $9, $11, $12, $13 }')"
    grep -h "CPU:" "$run/run.err" | sed 's/^/          --stats /'
    psql_ -d postgres -c "DROP DATABASE $db" >/dev/null
    rm -rf "$run"
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$RESULTS" "$CORES" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
cores = int(sys.argv[2])
by = {}
for r in rows: by.setdefault(int(r[0]), []).append([float(x) for x in r[1:12]])
med = lambda xs: statistics.median(xs)
print()
print(f"medians of {len(rows) // len(by)} round(s); {cores} cores")
print("| workers | wall s | chunks | chunks/s | audio h per h | coordinator CPU s (ms/chunk) | worker CPU s/chunk | DB CPU ms/chunk | DB transactions/chunk | DB rows/chunk | chunk KB | DB connections | idle DB CPU ms/s |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
model = []
for n in sorted(by):
    cols = list(zip(*by[n]))
    wall, chunks, audio, coord, work, db, xacts, written, nbytes, conns, idle = (med(c) for c in cols)
    print(f"| {n} | {wall:.1f} | {chunks:.0f} | {chunks / wall:.2f} | {audio / wall:.0f} | {coord:.2f} ({coord / chunks * 1000:.1f}) | "
          f"{work / chunks:.3f} | {db / chunks * 1000:.1f} | {xacts / chunks:.1f} | {written / chunks:.1f} | {nbytes / chunks / 1024:.0f} | {conns:.0f} | {idle / 11 * 1000:.1f} |")
    model.append((n, work / chunks, db / chunks, coord / chunks, nbytes / chunks, audio / chunks))
print()
for n, w, d, c, b, a in model:
    print(f"N={n}: W {w:.3f} worker-CPU-s/chunk, D {d * 1000:.1f} DB-CPU-ms/chunk: one database core serves W/D ≈ {w / d:.0f} worker cores; "
          f"one coordinator core keeps W/C ≈ {w / c:.0f} worker cores busy; {b / a * 3600 / 1e6:.1f} MB to the shared folder per audio hour")
PY
