#!/bin/bash
# Accuracy of the two language identifiers Debian ships (libexttextcat, libcld2) on a labelled
# set of paragraphs: English from the corpus (corpus-english.tsv, drawn by the seed-7 sample in
# docs/BENCHMARKS.md) and hand-written English, French and German (handwritten.tsv).
# Usage: Scripts/langid/measure.sh   (needs libexttextcat-dev, libcld2-dev, gcc, g++)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gcc -O2 -o "$tmp/textcat" "$here/textcat-classify.c" $(pkg-config --cflags --libs libexttextcat)
g++ -O2 -o "$tmp/cld2" "$here/cld2-classify.cc" -lcld2
cat "$here"/*.tsv > "$tmp/all.tsv"
grep -E '^(de|en|es|fr|it|la|nl|pt|sco)\.lm' /usr/share/libexttextcat/fpdb.conf | sort -u > "$tmp/small.conf"
"$tmp/textcat" < "$tmp/all.tsv" > "$tmp/textcat-all.out"
"$tmp/textcat" "$tmp/small.conf" < "$tmp/all.tsv" > "$tmp/textcat-9.out"
"$tmp/cld2" < "$tmp/all.tsv" > "$tmp/cld2.out"
python3 "$here/score.py" "$tmp/textcat-all.out" "$tmp/textcat-9.out" "$tmp/cld2.out"
