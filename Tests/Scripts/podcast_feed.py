#!/usr/bin/env python3
"""Checks a Lectern podcast feed with independent readers, against the job's word-timing sidecar.

    podcast_feed.py FEED --sidecar NAME.timings.json --episodes book|chapters [--json]

FEED is a folder that `lectern feed` wrote (its feed.xml and the files beside it; the feed's
URLs, under its base URL, are read from the folder) or the feed's base URL on a server
(http://127.0.0.1:PORT/feeds/SECRET, whose feed.xml and files are fetched from there).

feedparser (PyPI) reads the RSS and iTunes fields and must find the document well-formed (no
bozo); Python's own XML parser reads the Podcasting 2.0 elements, which feedparser does not know.
Then, for every episode: the enclosure's length equals the bytes served, the chapters JSON
parses back to the sidecar's chapter times and the WebVTT transcript to its word times, within
1 ms, timed to the episode's own audio (`chapters`: each chapter file starts at 0).

Exits 0 when every check passes; else prints each failure and exits 1.
"""
import argparse
import json
import os
import re
import sys
import urllib.parse
import urllib.request
import uuid
import xml.etree.ElementTree as ET

import feedparser

PODCAST = "https://podcastindex.org/namespace/1.0"
ATOM = "http://www.w3.org/2005/Atom"
ITUNES = "http://www.itunes.com/dtds/podcast-1.0.dtd"
PODCAST_GUID_NAMESPACE = uuid.UUID("ead4c236-bf58-58c6-a2c6-a6b28d128cb6")
TOLERANCE_MS = 1


class Source:
    """Reads the feed and its files from a folder or over HTTP."""

    def __init__(self, feed):
        self.folder = None if re.match(r"^https?://", feed) else os.path.abspath(feed)
        self.base = None if self.folder else feed.rstrip("/")
        self.feed_base = None  # the base URL the feed names its files under (a folder's feed)

    def feed_xml(self):
        if self.folder:
            with open(os.path.join(self.folder, "feed.xml"), "rb") as f:
                return f.read()
        return self._get(self.base + "/feed.xml")

    def read(self, url):
        if self.folder:
            prefix = self.feed_base + "/"
            if not url.startswith(prefix):
                raise ValueError(f"{url} is not under the feed's base URL {self.feed_base}")
            path = urllib.parse.unquote(url[len(prefix):])
            with open(os.path.join(self.folder, *path.split("/")), "rb") as f:
                return f.read()
        if not url.startswith(self.base + "/"):
            raise ValueError(f"{url} is not under the base URL {self.base}")
        return self._get(url)

    @staticmethod
    def _get(url):
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.read()


def clock_ms(text):
    h, m, rest = text.split(":")
    s, ms = rest.split(".")
    return ((int(h) * 60 + int(m)) * 60 + int(s)) * 1000 + int(ms)


TIMESTAMP = r"(\d{2,}:\d{2}:\d{2}\.\d{3})"


def parse_vtt(text):
    """The cues of a WebVTT document: (start, end, [timestamp tags]) in milliseconds."""
    if not text.startswith("WEBVTT"):
        raise ValueError("the transcript does not start with WEBVTT")
    cues = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.split("\n")
        timing = next((i for i, line in enumerate(lines) if "-->" in line), None)
        if timing is None:
            continue
        m = re.match(TIMESTAMP + r"\s+-->\s+" + TIMESTAMP, lines[timing])
        if not m:
            raise ValueError(f"a bad cue timing line: {lines[timing]!r}")
        body = "\n".join(lines[timing + 1:])
        tags = [clock_ms(t) for t in re.findall("<" + TIMESTAMP + ">", body)]
        cues.append((clock_ms(m.group(1)), clock_ms(m.group(2)), tags))
    return cues


def near(value, values):
    return any(abs(value - v) <= TOLERANCE_MS for v in values)


class Checker:
    def __init__(self):
        self.failures = []
        self.checked = {"episodes": 0, "chapters": 0, "words": 0, "cues": 0, "bytes": 0}

    def expect(self, condition, message):
        if not condition:
            self.failures.append(message)
        return condition


def expected_episodes(sidecar, layout):
    """Per episode: its title, its sidecar chapters and where its audio starts in the book's."""
    chapters = sidecar["chapters"]
    if layout == "book":
        return [(sidecar["title"], chapters, 0)]
    return [(c["title"], [c], c["start"]) for c in chapters]


def check_transcript(check, name, vtt, chapters, offset):
    cues = parse_vtt(vtt)
    times = []
    previous_start = -1
    for start, end, tags in cues:
        check.expect(start < end, f"{name}: a cue ends at or before its start ({start} → {end} ms)")
        check.expect(start > previous_start, f"{name}: cue starts do not increase ({previous_start}, {start} ms)")
        check.expect(all(start < t < end for t in tags), f"{name}: a word tag lies outside its cue {start}–{end} ms: {tags}")
        previous_start = start
        times += [start] + tags
    words, sentence_starts = [], []
    for chapter in chapters:
        for paragraph in chapter["paragraphs"]:
            for sentence in paragraph["sentences"]:
                if not sentence["words"]:
                    continue
                sentence_starts.append(sentence["start"] - offset)
                last = None
                for word in sentence["words"]:
                    start = word["start"] - offset
                    # A word that starts no later than the one before has no tag of its own.
                    if last is None or start > last + TOLERANCE_MS:
                        words.append(start)
                    last = start if last is None else max(last, start)
    missing = [w for w in words if not near(w, times)]
    check.expect(not missing, f"{name}: {len(missing)} of {len(words)} sidecar word starts are not in the transcript "
                              f"(first: {missing[:5]} ms)")
    stray = [t for t in times if not near(t, words + sentence_starts)]
    check.expect(not stray, f"{name}: {len(stray)} transcript times are no sidecar word or sentence start (first: {stray[:5]} ms)")
    check.expect(all(t >= 0 for t in times), f"{name}: a transcript time before the episode's start")
    check.checked["words"] += len(words)
    check.checked["cues"] += len(cues)


def check_chapters(check, name, data, chapters, offset):
    document = json.loads(data)
    check.expect(document.get("version") == "1.2.0", f"{name}: chapters version {document.get('version')!r}, not 1.2.0")
    entries = document.get("chapters", [])
    check.expect(len(entries) == len(chapters), f"{name}: {len(entries)} chapters, the sidecar has {len(chapters)}")
    for entry, chapter in zip(entries, chapters):
        start = round(float(entry["startTime"]) * 1000)
        check.expect(abs(start - (chapter["start"] - offset)) <= TOLERANCE_MS,
                     f"{name}: chapter {chapter['title']!r} starts at {start} ms, the sidecar says {chapter['start'] - offset}")
        if "endTime" in entry:
            end = round(float(entry["endTime"]) * 1000)
            check.expect(abs(end - (chapter["end"] - offset)) <= TOLERANCE_MS,
                         f"{name}: chapter {chapter['title']!r} ends at {end} ms, the sidecar says {chapter['end'] - offset}")
        check.expect(entry.get("title") == chapter["title"], f"{name}: chapter title {entry.get('title')!r}, not {chapter['title']!r}")
    check.checked["chapters"] += len(entries)
    return [float(e["startTime"]) for e in entries]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("feed", help="the feed's folder, or its base URL on a server")
    parser.add_argument("--sidecar", required=True, help="the job's NAME.timings.json")
    parser.add_argument("--episodes", choices=["book", "chapters"], required=True,
                        help="an episode for the book, or one per chapter file")
    parser.add_argument("--json", action="store_true", help="print what was checked as JSON")
    args = parser.parse_args()

    with open(args.sidecar, encoding="utf-8") as f:
        sidecar = json.load(f)
    source = Source(args.feed)
    check = Checker()
    raw = source.feed_xml()

    feed = feedparser.parse(raw)
    if feed.bozo:
        print(f"feedparser: the feed is not well-formed: {feed.bozo_exception}", file=sys.stderr)
        return 1
    tree = ET.fromstring(raw)
    channel = tree.find("channel")
    self_link = channel.find(f"{{{ATOM}}}link")
    feed_url = self_link.get("href") if self_link is not None else None
    if not check.expect(feed_url and feed_url.endswith("/feed.xml"), f"no atom:link rel=self to feed.xml: {feed_url!r}"):
        return report(check, args)
    source.feed_base = feed_url[: -len("/feed.xml")]
    if source.base:
        check.expect(source.feed_base == source.base, f"the feed names itself {feed_url}, not under {source.base}")

    info = feed.feed
    check.expect(info.get("title") == sidecar["title"], f"channel title {info.get('title')!r}, not {sidecar['title']!r}")
    if sidecar.get("author"):
        check.expect(info.get("author") == sidecar["author"], f"itunes:author {info.get('author')!r}, not {sidecar['author']!r}")
    for key in ("language", "subtitle", "link", "itunes_explicit", "itunes_type"):
        check.expect(key in info, f"the channel has no {key} (feedparser's keys: {sorted(info.keys())})")
    check.expect(info.get("itunes_type") == "serial", f"itunes:type {info.get('itunes_type')!r}, not serial")
    # feedparser reads Apple's old values only (yes, clean); Apple's spec now says true or false.
    explicit = channel.findtext(f"{{{ITUNES}}}explicit")
    check.expect(explicit == "false" and not info.get("itunes_explicit"), f"itunes:explicit {explicit!r}, not false")
    check.expect(any(t.get("term") == "Books" for t in info.get("tags", [])), f"no itunes:category Books: {info.get('tags')}")
    image = info.get("image", {}).get("href")
    if image:
        check.expect(image.startswith(source.feed_base + "/"), f"itunes:image {image} is not under the base URL")
        check.expect(len(source.read(image)) > 0, f"the cover {image} is empty")
    guid = channel.findtext(f"{{{PODCAST}}}guid")
    address = re.sub(r"^[a-z]+://", "", feed_url).rstrip("/")
    check.expect(guid == str(uuid.uuid5(PODCAST_GUID_NAMESPACE, address)),
                 f"podcast:guid {guid!r} is not the UUIDv5 of {address!r}")
    check.expect(channel.findtext(f"{{{PODCAST}}}locked") in ("yes", "no"), "no podcast:locked")

    expected = expected_episodes(sidecar, args.episodes)
    items = channel.findall("item")
    check.expect(len(feed.entries) == len(expected) == len(items),
                 f"{len(feed.entries)} episodes (feedparser), {len(items)} items, the sidecar asks for {len(expected)}")
    guids = set()
    for number, (entry, item, (title, chapters, offset)) in enumerate(zip(feed.entries, items, expected), start=1):
        name = f"episode {number} ({title})"
        check.expect(entry.get("title") == title, f"{name}: title {entry.get('title')!r}")
        check.expect(entry.get("id") and entry.id not in guids, f"{name}: no guid, or one another episode has")
        guids.add(entry.get("id"))
        check.expect("published_parsed" in entry, f"{name}: no pubDate feedparser reads")
        check.expect(entry.get("itunes_episode") == str(number), f"{name}: itunes:episode {entry.get('itunes_episode')!r}")
        duration = entry.get("itunes_duration")
        span = (chapters[-1]["end"] - chapters[0]["start"]) if args.episodes == "chapters" else sidecar["durationMs"]
        check.expect(duration is not None and abs(int(duration) * 1000 - span) <= 1000,
                     f"{name}: itunes:duration {duration!r} for {span} ms")
        enclosures = entry.get("enclosures", [])
        if not check.expect(len(enclosures) == 1, f"{name}: {len(enclosures)} enclosures"):
            continue
        enclosure = enclosures[0]
        audio = source.read(enclosure["href"])
        check.expect(int(enclosure.get("length", -1)) == len(audio),
                     f"{name}: enclosure length {enclosure.get('length')}, the file has {len(audio)} bytes")
        check.expect(enclosure.get("type") in ("audio/mpeg", "audio/mp4", "audio/ogg"), f"{name}: enclosure type {enclosure.get('type')!r}")
        check.checked["bytes"] += len(audio)

        chapters_element = item.find(f"{{{PODCAST}}}chapters")
        if check.expect(chapters_element is not None and chapters_element.get("type") == "application/json+chapters",
                        f"{name}: no podcast:chapters of type application/json+chapters"):
            starts = check_chapters(check, name, source.read(chapters_element.get("url")), chapters, offset)
            if args.episodes == "chapters":
                check.expect(starts[:1] == [0.0], f"{name}: a chapter file's chapter starts at {starts[:1]}, not 0")
        transcript = item.find(f"{{{PODCAST}}}transcript")
        if check.expect(transcript is not None and transcript.get("type") == "text/vtt", f"{name}: no podcast:transcript of type text/vtt"):
            check_transcript(check, name, source.read(transcript.get("url")).decode("utf-8"), chapters, offset)
        check.checked["episodes"] += 1
    return report(check, args)


def report(check, args):
    for failure in check.failures:
        print(failure, file=sys.stderr)
    if args.json:
        print(json.dumps({"failures": check.failures, **check.checked}))
    return 1 if check.failures else 0


if __name__ == "__main__":
    sys.exit(main())
