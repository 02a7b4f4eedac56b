#!/usr/bin/env python3
"""Per-suite times of a `swift test` run, from swift-testing's event stream.

    SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 \\
      swift test --skip-build --event-stream-output-path EVENTS.jsonl --event-stream-version 0 ...
    python3 Scripts/test-times.py EVENTS.jsonl [--top N]

Run the tests one at a time (width 1, as above) for times that mean something: each suite gets
`wall`, the sum of its tests' spans, and `share`, the run's wall time divided among the tests
running at each moment (equal in a serial run; they add up to the run's wall time); the slowest
tests follow. `make test` runs it after every (parallel) run, where swift-testing reports every test
as started at once, so a test's span is mostly waiting: for such a run it lists the suites that
finish last, with their finish times — the suites that hold the run's tail. A test's subprocesses (lectern, epubcheck, ffmpeg) count in its time.
"""
import json
import sys
from collections import defaultdict


def read_events(path):
    """(test id -> (start, end)) for every test function that started and ended, and the run's span."""
    started, spans, functions = {}, {}, set()
    run = [None, None]
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if record.get("kind") == "test" and record["payload"].get("kind") == "function":
                functions.add(record["payload"]["id"])
            if record.get("kind") != "event":
                continue
            payload = record["payload"]
            kind, instant = payload.get("kind"), payload.get("instant", {}).get("absolute")
            test = payload.get("testID")
            if kind == "runStarted":
                run[0] = instant
            elif kind == "runEnded":
                run[1] = instant
            elif kind == "testStarted" and test:
                started[test] = instant
            elif kind == "testEnded" and test in started:
                spans[test] = (started.pop(test), instant)
    return {test: span for test, span in spans.items() if test in functions}, run


def suite_of(test_id):
    """`Module.Suite/test()/File.swift:1:2` -> `Module.Suite`."""
    return test_id.split("/", 1)[0]


def shares(spans):
    """Each test's part of the run's wall time: every moment divided among the tests running then."""
    edges = sorted({t for span in spans.values() for t in span})
    share = defaultdict(float)
    ordered = sorted(spans.items(), key=lambda item: item[1][0])
    for left, right in zip(edges, edges[1:]):
        running = [test for test, (start, end) in ordered if start <= left and end >= right]
        for test in running:
            share[test] += (right - left) / len(running)
    return share


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    top = 25
    if "--top" in args:
        index = args.index("--top")
        top = int(args[index + 1])
        del args[index:index + 2]
    spans, run = read_events(args[0])
    if not spans:
        print(f"test-times: no test ran to its end in {args[0]}")
        return
    first = min(start for start, _ in spans.values())
    if sum(1 for start, _ in spans.values() if start - first < 1) > len(spans) / 2:
        print_finish_times(spans, run, top)
        return
    share = shares(spans)
    suites = defaultdict(lambda: [0, 0.0, 0.0])
    for test, (start, end) in spans.items():
        entry = suites[suite_of(test)]
        entry[0] += 1
        entry[1] += end - start
        entry[2] += share[test]
    total = (run[1] - run[0]) if None not in run else sum(entry[2] for entry in suites.values())
    print(f"Per-suite times ({len(spans)} tests, {len(suites)} suites, {total:.0f} s wall): the {min(top, len(suites))} largest shares")
    print(f"{'share s':>8} {'wall s':>8} {'tests':>5}  suite")
    for name, (count, wall, part) in sorted(suites.items(), key=lambda item: -item[1][2])[:top]:
        print(f"{part:8.1f} {wall:8.1f} {count:5d}  {name}")
    print("The slowest tests (wall s):")
    for test, (start, end) in sorted(spans.items(), key=lambda item: -(item[1][1] - item[1][0]))[:10]:
        print(f"{end - start:8.1f}  {'/'.join(test.split('/')[:2])}")


def print_finish_times(spans, run, top):
    """A parallel run, where every test is reported started at once: each suite's finish time."""
    begin = run[0] if run[0] is not None else min(start for start, _ in spans.values())
    suites = defaultdict(lambda: [0, 0.0])
    for test, (_, end) in spans.items():
        entry = suites[suite_of(test)]
        entry[0] += 1
        entry[1] = max(entry[1], end - begin)
    total = (run[1] - run[0]) if None not in run else max(entry[1] for entry in suites.values())
    print(f"Suites finishing last ({len(spans)} tests, {len(suites)} suites, {total:.0f} s wall). A parallel run reports every test")
    print("started at once: these finish times show what holds the run's tail; for each suite's own time see Scripts/test-times.py.")
    print(f"{'ends at s':>9} {'tests':>5}  suite")
    for name, (count, end) in sorted(suites.items(), key=lambda item: -item[1][1])[:top]:
        print(f"{end:9.1f} {count:5d}  {name}")


if __name__ == "__main__":
    main()
