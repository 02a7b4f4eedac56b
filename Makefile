# Lectern — two commands set everything up on a fresh Debian machine:
#   make demo   install what is missing, build, narrate Jobs/demo.yml (committed text) into out/demo/
#   make test   install what is missing, build, run every test
SHELL := /bin/bash
SWIFT ?= swift
APT_PACKAGES := libespeak-ng-dev espeak-ng espeak-ng-data libmp3lame-dev lame libsndfile1-dev libcmark-dev \
                libsqlite3-dev libxml2-dev libcld2-dev pkg-config ffmpeg mp3val mpg123 python3-mutagen eyed3 python3-webvtt python3-srt chromium epubcheck unzip time
BIN := .build/debug/lectern
RELEASE_BIN := .build/release/lectern

.PHONY: demo test build release deps bench clean

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

# make bench [BENCH=parallel|incremental]  (default: both; see docs/BENCHMARKS.md)
bench: release
	Scripts/bench.sh $(BENCH)

clean:
	rm -rf .build out .lectern
