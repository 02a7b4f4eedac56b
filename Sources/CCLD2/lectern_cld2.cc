#include "lectern_cld2.h"
#include <cstdio>
#include <cstring>
#include <cld2/public/compact_lang_det.h>

extern "C" void lectern_cld2_detect(const char *text, int length, lectern_cld2_result *result) {
    CLD2::Language languages[3];
    int percents[3];
    double scores[3];
    int textBytes = 0;
    bool reliable = false;
    CLD2::Language best = CLD2::ExtDetectLanguageSummary(text, length, true, nullptr, 0, languages, percents, scores, nullptr,
                                                         &textBytes, &reliable);
    std::strncpy(result->code, CLD2::LanguageCode(best), sizeof result->code - 1);
    result->code[sizeof result->code - 1] = 0;
    result->percent = best == languages[0] ? percents[0] : 0;
    result->reliable = reliable ? 1 : 0;
    result->secondPercent = best == languages[0] && languages[1] != CLD2::UNKNOWN_LANGUAGE ? percents[1] : 0;
    result->score = best == languages[0] ? static_cast<int>(scores[0]) : 0;
}
