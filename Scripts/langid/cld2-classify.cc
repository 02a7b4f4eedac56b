// Reads "label<TAB>text" lines, prints "label<TAB>words<TAB>code:percent:reliable" with CLD2's answer.
#include <cstdio>
#include <cstring>
#include <cld2/public/compact_lang_det.h>
int main() {
    char line[65536];
    while (fgets(line, sizeof line, stdin)) {
        char *tab = strchr(line, '\t'); if (!tab) continue;
        *tab = 0; char *text = tab + 1; text[strcspn(text, "\n")] = 0;
        int words = 0, in = 0; for (char *p = text; *p; p++) { if (*p == ' ') in = 0; else if (!in) { in = 1; words++; } }
        CLD2::Language lang3[3]; int percent3[3]; int bytes; bool reliable;
        CLD2::Language lang = CLD2::DetectLanguageSummary(text, strlen(text), true, lang3, percent3, &bytes, &reliable);
        printf("%s\t%d\t%s:%d:%d\n", line, words, CLD2::LanguageCode(lang), percent3[0], reliable ? 1 : 0);
    }
    return 0;
}
