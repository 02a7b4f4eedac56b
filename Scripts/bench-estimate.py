#!/usr/bin/env python3
"""`lectern check`'s duration estimate against rendered length, on a few chapters of each corpus book.

Usage (from the repository root, after `swift build --product lectern`):
    Scripts/bench-estimate.py [--lectern .build/debug/lectern] [--out /tmp/lectern-estimate] [NAME …]

For each book: writes a manifest into --out (never beside the corpus) that reads only the listed
chapters (every other chapter skipped by an override), runs `lectern check --json` and
`lectern run`, and compares the estimate with the MP3's duration as ffprobe reads it. Prints a
Markdown table (docs/BENCHMARKS.md, "Issue #24, item 8"). `fit`: the renders SpeechDuration's
constants were fit on; `verify`: the others.
"""
import argparse, json, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C = os.path.join(os.path.dirname(ROOT), 'shared', 'corpus')
# name: (source, chapters read (1-based), manifest lines, source lines, fit or verify)
BOOKS = {
    'Alice (text, en-gb, headings at 0.45)': ('text/pg11-alice-in-wonderland.txt', [1, 7], 'voice: { name: en-gb, rate: 0.5 }\nstyles:\n  heading: { rate: 0.45 }\n', '', 'fit'),
    'Alice (text, rate 0.35 = 147 wpm)': ('text/pg11-alice-in-wonderland.txt', [3], 'voice: { rate: 0.35 }\n', '', 'fit'),
    'Critical and Historical Essays (text)': ('text/pg16351-critical-and-historical-essays.txt', [2], '', '', 'fit'),
    'Jack Sheppard (HTML)': ('html/pg16215-jack-sheppard.htm', [10], '', '    chapters: { level: 2 }\n', 'fit'),
    'Mind the Paint Girl (text)': ('text/pg21849-mind-the-paint-girl.txt', [2, 3], '', '', 'fit'),
    'Mostly Adequate Guide (Markdown)': ('markdown/mostly-adequate-guide/ch*.md', [2, 5], '', '', 'fit'),
    'News from Nowhere (text)': ('text/pg3261-news-from-nowhere.txt', [2, 10], '', '', 'fit'),
    'Pride and Prejudice (text)': ('text/pg1342-pride-and-prejudice.txt', [3, 20], '', '', 'fit'),
    'Alice (text, rate 0.65 = 258 wpm)': ('text/pg11-alice-in-wonderland.txt', [2], 'voice: { rate: 0.65 }\n', '', 'verify'),
    "Children's Literature (EPUB)": ('epub/idpf-childrens-literature.epub', [2, 3], '', '', 'verify'),
    'Frankenstein (HTML)': ('html/pg84-frankenstein.htm', [6, 12], '', '    chapters: { level: 2 }\n', 'verify'),
    'Jack Sheppard (text)': ('text/pg16215-jack-sheppard.txt', [4, 30], '', '', 'verify'),
    'Mind the Paint Girl (HTML)': ('html/pg21849-mind-the-paint-girl.htm', [4], '', '', 'verify'),
    'Moby-Dick (EPUB)': ('epub/idpf-moby-dick.epub', [3, 10, 40], '', '', 'verify'),
    'Pride and Prejudice (HTML)': ('html/pg1342-pride-and-prejudice.htm', [5, 40], '', '    chapters: { level: 2 }\n', 'verify'),
    'Sherlock Holmes (EPUB)': ('epub/pg1661-adventures-of-sherlock-holmes-epub2.epub', [3, 5], '', '', 'verify'),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--lectern', default=os.path.join(ROOT, '.build/debug/lectern'))
    parser.add_argument('--out', default='/tmp/lectern-estimate')
    parser.add_argument('names', nargs='*')
    args = parser.parse_args()
    env = dict(os.environ, LECTERN_CONFIG=os.path.join(ROOT, 'Config'))
    print('| book | set | chapters | rendered s | estimate s (error) |\n|---|---|---|---|---|')
    for i, (name, (source, keep, extra, source_keys, kind)) in enumerate(BOOKS.items()):
        if args.names and not any(n.lower() in name.lower() for n in args.names):
            continue
        folder = os.path.join(args.out, f'book{i}')
        os.makedirs(folder, exist_ok=True)
        manifest = os.path.join(folder, 'job.yml')
        head = f'title: book{i}\noutput: {folder}/out\nsources:\n  - path: {os.path.join(C, source)}\n{source_keys}timings: [json]\n{extra}'

        def check():
            r = subprocess.run([args.lectern, 'check', '--json', manifest], capture_output=True, text=True, env=env)
            if r.returncode:
                sys.exit(f'{name}: check failed: {r.stderr}')
            return json.loads(r.stdout)

        open(manifest, 'w').write(head)
        count = len(check()['chapters'])
        skips = ''.join(f'  - {{ chapter: {c}, skip: true }}\n' for c in range(1, count + 1) if c not in keep)
        open(manifest, 'w').write(head + ('overrides:\n' + skips if skips else ''))
        estimate = check()['estimatedSeconds']
        r = subprocess.run([args.lectern, 'run', '--quiet', manifest, '--db', os.path.join(folder, 'lectern.sqlite')],
                           capture_output=True, text=True, env=env)
        if r.returncode:
            sys.exit(f'{name}: run failed: {r.stderr}')
        probe = subprocess.run(['ffprobe', '-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0',
                                os.path.join(folder, 'out', 'job.mp3')], capture_output=True, text=True)
        rendered = float(probe.stdout.strip())
        print(f'| {name} | {kind} | {len(keep)} | {rendered:.0f} | {estimate:.0f} ({100 * (estimate / rendered - 1):+.1f} %) |', flush=True)


if __name__ == '__main__':
    main()
