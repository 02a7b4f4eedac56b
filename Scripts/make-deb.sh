#!/usr/bin/env bash
# Builds a Debian package of Lectern from a built binary: `make deb` (the release build) and the
# package test (Tests/LecternEndToEndTests/DebianPackageTests.swift) call it.
#
#   Scripts/make-deb.sh BINARY OUT_DIR      → OUT_DIR/lectern_VERSION_ARCH.deb, its path printed
#
# The binary must carry the Swift runtime (--static-swift-stdlib): the package depends only on
# Debian's libraries, found from what the binary links (ldd, dpkg -S) plus what Lectern loads at
# run time (libespeak-ng1 and its data). Config/ goes to /usr/share/lectern/Config, where the
# installed binary finds it (../share/lectern/Config beside /usr/bin), the man pages to
# /usr/share/man.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:?usage: Scripts/make-deb.sh BINARY OUT_DIR}
OUT=${2:?usage: Scripts/make-deb.sh BINARY OUT_DIR}
[ -x "$BIN" ] || { echo "make-deb: $BIN is not an executable (build it first: make release)" >&2; exit 1; }

if ldd "$BIN" | grep -Eq 'libswiftCore|libFoundation'; then
  echo "make-deb: $BIN links the Swift runtime dynamically; build it with --static-swift-stdlib (make release does)" >&2
  exit 1
fi
VERSION=$("$BIN" --version | awk '{print $2}')
ARCH=$(dpkg --print-architecture)

# Debian packages of the libraries the binary links itself (NEEDED; theirs come with them), the
# C library's own left out.
needed=$(objdump -p "$BIN" | awk '$1 == "NEEDED" {print $2}')
depends=$(ldd "$BIN" | awk -v needed=" $(echo $needed) " '$3 ~ /^\// && index(needed, " " $1 " ") {print $3}' | while read -r lib; do
  real=$(readlink -f "$lib")
  pkg=$(dpkg -S "$lib" 2>/dev/null || dpkg -S "$real" 2>/dev/null || true)
  pkg=${pkg%%:*}
  [ -n "$pkg" ] || { echo "make-deb: no Debian package owns $lib" >&2; exit 1; }
  case "$pkg" in libc6|libgcc-s1) ;; *) echo "$pkg";; esac
done | sort -u)
# libespeak-ng is opened at run time (dlopen), not linked, so ldd does not show it.
depends=$(printf '%s\n' $depends libespeak-ng1 espeak-ng-data | sort -u | paste -sd, | sed 's/,/, /g')

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
install -D -m 755 "$BIN" "$STAGE/usr/bin/lectern"
strip --strip-unneeded "$STAGE/usr/bin/lectern" 2>/dev/null || true
mkdir -p "$STAGE/usr/share/lectern" "$STAGE/usr/share/doc/lectern"
cp -r "$ROOT/Config" "$STAGE/usr/share/lectern/Config"
for page in "$ROOT"/docs/*.[1-8]; do
  section=${page##*.}
  install -D -m 644 "$page" "$STAGE/usr/share/man/man$section/$(basename "$page")"
  gzip -9n "$STAGE/usr/share/man/man$section/$(basename "$page")"
done
install -m 644 "$ROOT/README.md" "$STAGE/usr/share/doc/lectern/README.md"
size=$(du -sk "$STAGE" | cut -f1)
mkdir -p "$STAGE/DEBIAN"
cat > "$STAGE/DEBIAN/control" <<CONTROL
Package: lectern
Version: $VERSION
Architecture: $ARCH
Maintainer: Lectern developers <lectern@localhost>
Installed-Size: $size
Depends: $depends
Section: sound
Priority: optional
Description: batch narration of documents into chaptered audiobooks
 Lectern reads plain text, Markdown, HTML and EPUB, narrates them with
 espeak-ng (or a Piper voice), and writes MP3 audiobooks with chapters and
 word-timing sidecars for synced highlighting, tracking every job in SQLite.
CONTROL
mkdir -p "$OUT"
deb="$OUT/lectern_${VERSION}_${ARCH}.deb"
dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$deb" >/dev/null
echo "$deb"
