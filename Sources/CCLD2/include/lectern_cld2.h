#ifndef LECTERN_CLD2_H
#define LECTERN_CLD2_H
/* A C face for CLD2 (Compact Language Detector 2, Debian's libcld2), whose API is C++. */
#ifdef __cplusplus
extern "C" {
#endif

/** CLD2's answer for one text. */
typedef struct {
    /** The best language's code ("en", "fr", "zh-Hant"; "un" when unknown). */
    char code[16];
    /** The share of the text's scored bytes in that language, 0…100. */
    int percent;
    /** Whether CLD2 calls the answer reliable. */
    int reliable;
    /** The share of the next best language, 0…100 (0 when there is none). */
    int secondPercent;
    /** CLD2's normalised score for the best language: its evidence per kilobyte of text
        (prose in a language scores about 750 and more, words spelt as a dialect is spoken less). */
    int score;
} lectern_cld2_result;

/** Identifies the language of `length` bytes of UTF-8 plain text. Stateless and thread-safe. */
void lectern_cld2_detect(const char *text, int length, lectern_cld2_result *result);

#ifdef __cplusplus
}
#endif
#endif
