"""Scores identifier outputs ("label<TAB>words<TAB>answer" lines): top-1 accuracy, and for the
answers a voice switch would trust, how many are right, by paragraph length."""
import sys

def parse(answer, words):
    """The top answer's primary tag, and whether Lectern's rule would trust it."""
    if answer.startswith('['):          # libexttextcat: [en--utf8][sco--utf8] (best first)
        names = answer.strip('[]').split('][')
        return names[0].split('-')[0], len(names) == 1 and words >= 3
    if ':' in answer:                   # cld2: code:percent:reliable
        code, percent, reliable = answer.split(':')
        needed = 95 if words < 8 else 70   # LanguageIdentifier.shortPercent / longPercent
        return code.split('-')[0], reliable == '1' and words >= 3 and int(percent) >= needed
    return None, False                  # UNKNOWN / SHORT

names = {'textcat-all': 'libexttextcat, all 164 fingerprints', 'textcat-9': 'libexttextcat, 9 fingerprints',
         'cld2': 'CLD2 (libcld2)'}
print('| identifier | paragraphs | top-1 right (short <8 words / long) | confident answers | confident and wrong |')
print('|---|---|---|---|---|')
for path in sys.argv[1:]:
    rows = [line.rstrip('\n').split('\t') for line in open(path)]
    right = {'short': [0, 0], 'long': [0, 0]}
    confident = wrong = 0
    for label, words, answer in rows:
        code, sure = parse(answer, int(words))
        bucket = 'short' if int(words) < 8 else 'long'
        right[bucket][1] += 1
        right[bucket][0] += code == label
        if sure:
            confident += 1
            wrong += code != label
    key = path.rsplit('/', 1)[-1].removesuffix('.out')
    total = sum(r[0] for r in right.values())
    print(f"| {names.get(key, key)} | {len(rows)} | {total}/{len(rows)} ({right['short'][0]}/{right['short'][1]} / "
          f"{right['long'][0]}/{right['long'][1]}) | {confident} | {wrong} |")
