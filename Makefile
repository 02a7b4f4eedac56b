# Lectern — two commands set everything up on a fresh Debian machine:
#   make demo   install what is missing, build, narrate Jobs/demo.yml (committed text) into out/demo/
#   make test   install what is missing, build, run every test
SHELL := /bin/bash
SWIFT ?= swift
APT_PACKAGES := libespeak-ng-dev espeak-ng espeak-ng-data libmp3lame-dev lame libsndfile1-dev libcmark-dev \
                libsqlite3-dev libxml2-dev libcld2-dev pkg-config ffmpeg mp3val mpg123 python3-mutagen python3-webvtt python3-srt chromium epubcheck unzip time
BIN := .build/debug/lectern
RELEASE_BIN := .build/release/lectern

BENCH_VENV := .venv-bench
BENCH_APT_PACKAGES := python3-venv python3-dev gcc

.PHONY: demo test build release deps bench bench-deps clean

deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

demo: release
	$(RELEASE_BIN) run Jobs/demo.yml
	@echo; $(RELEASE_BIN) status demo

test: build
	LECTERN_BIN=$(CURDIR)/$(BIN) $(SWIFT) test

# What only the benchmarks need: PESQ (PyPI `pesq`, built from source) and numpy, in a git-ignored
# virtual environment $(BENCH_VENV)/ of this checkout; nothing is installed into the system's Python.
bench-deps: deps
	@$(BENCH_VENV)/bin/python -c "import pesq, numpy" 2>/dev/null && exit 0; \
	missing=""; for p in $(BENCH_APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi; \
	rm -rf $(BENCH_VENV) && python3 -m venv $(BENCH_VENV) && $(BENCH_VENV)/bin/pip install -q numpy pesq

# make bench [BENCH=parallel|incremental|quality]  (default: all three; see docs/BENCHMARKS.md)
bench: release $(if $(filter incremental,$(BENCH)),,bench-deps)
	Scripts/bench.sh $(BENCH)

clean:
	rm -rf .build out .lectern $(BENCH_VENV)
