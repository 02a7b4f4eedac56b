# Lectern — two commands set everything up on a fresh Debian machine:
#   make demo   install what is missing, build, narrate Jobs/demo.yml (committed text) into out/demo/
#   make test   install what is missing (also Playwright from PyPI into .python/), build, run every test
SHELL := /bin/bash
SWIFT ?= swift
APT_PACKAGES := libespeak-ng-dev espeak-ng espeak-ng-data libmp3lame-dev lame libsndfile1-dev libcmark-dev \
                libsqlite3-dev libxml2-dev libcld2-dev pkg-config ffmpeg mp3val mpg123 python3-mutagen python3-webvtt python3-srt chromium epubcheck unzip time
BIN := .build/debug/lectern
RELEASE_BIN := .build/release/lectern

TEST_PYTHON := .python

.PHONY: demo test build release deps test-python bench clean

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

# Playwright (PyPI) for the read-along page's browser test (Tests/Scripts/read_along.py), into
# $(TEST_PYTHON)/ of this clone; it drives Debian's chromium, so none of Playwright's own browsers
# is downloaded. Without it that test is skipped, saying so.
test-python:
	@PYTHONPATH=$(TEST_PYTHON) /usr/bin/python3 -c "import playwright.sync_api" 2>/dev/null || { \
	  /usr/bin/python3 -m pip --version >/dev/null 2>&1 || { \
	    SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends python3-pip >/dev/null; }; \
	  echo "installing Playwright into $(TEST_PYTHON)/"; \
	  /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --target $(TEST_PYTHON) playwright \
	  || echo "warning: could not install Playwright into $(TEST_PYTHON)/: the read-along page's keyboard test will be skipped"; }

test: build test-python
	LECTERN_BIN=$(CURDIR)/$(BIN) $(SWIFT) test

# make bench [BENCH=parallel|incremental]  (default: both; see docs/BENCHMARKS.md)
bench: release
	Scripts/bench.sh $(BENCH)

clean:
	rm -rf .build out .lectern $(TEST_PYTHON)
