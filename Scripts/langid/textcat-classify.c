/* Reads "label<TAB>text" lines, prints "label<TAB>words<TAB>result" with libexttextcat's answer. */
#include <stdio.h>
#include <string.h>
#include <textcat.h>
int main(int argc, char **argv) {
    void *h = special_textcat_Init(argc > 1 ? argv[1] : "/usr/share/libexttextcat/fpdb.conf", "/usr/share/libexttextcat/");
    if (!h) { fprintf(stderr, "textcat_Init failed\n"); return 1; }
    char line[65536];
    while (fgets(line, sizeof line, stdin)) {
        char *tab = strchr(line, '\t'); if (!tab) continue;
        *tab = 0; char *text = tab + 1; text[strcspn(text, "\n")] = 0;
        int words = 0, in = 0; for (char *p = text; *p; p++) { if (*p == ' ') in = 0; else if (!in) { in = 1; words++; } }
        printf("%s\t%d\t%s\n", line, words, textcat_Classify(h, text, strlen(text)));
    }
    textcat_Done(h);
    return 0;
}
