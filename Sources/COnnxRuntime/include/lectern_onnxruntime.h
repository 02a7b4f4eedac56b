#ifndef LECTERN_ONNXRUNTIME_H
#define LECTERN_ONNXRUNTIME_H
/* A small C face over onnxruntime's C API for the Piper engine: one Piper (VITS) model session,
   run on phoneme ids. onnxruntime (libonnxruntime.so, installed by `make piper` into .piper/) is
   loaded at run time (dlopen) and never linked, so Lectern builds and runs without it; no
   onnxruntime header is needed either (the few API entries used are declared in the .c file). */
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/** One loaded Piper model. Not thread-safe: one caller at a time. */
typedef struct lectern_piper_session lectern_piper_session;

/** Loads onnxruntime from `library` (once per process) and the model `model` with `threads`
    intra-op threads, the memory pattern off (`low_memory` nonzero) or on; the CPU memory arena
    stays on (turning it off raised the peak: 714 MB against 560 MB for a 23 s sentence).
    Returns NULL on failure, with a message in `error`. */
lectern_piper_session *lectern_piper_open(const char *library, const char *model, int32_t threads, int32_t low_memory,
                                          char *error, int32_t error_size);

/** 1 when the model takes a speaker id (`sid`), else 0. */
int32_t lectern_piper_takes_speaker(const lectern_piper_session *session);

/** 1 when the model outputs its phonemes' durations (`durations`, in frames), else 0. */
int32_t lectern_piper_has_durations(const lectern_piper_session *session);

/** The onnxruntime version of the loaded library (e.g. "1.28.2"), or "" before one is loaded. */
const char *lectern_piper_runtime_version(void);

/** Runs the model on `count` phoneme ids with the scales (noise, length, noise_w) and `speaker`
    (ignored by a model without `sid`). On success returns 1 with `*audio` (`*audio_count`
    samples in about −1…1) and, for a model with durations, `*durations` (`*durations_count`,
    one per id; NULL otherwise); free both with lectern_piper_free. On failure returns 0 with a
    message in `error`. */
int32_t lectern_piper_run(lectern_piper_session *session, const int64_t *ids, int64_t count,
                          float noise_scale, float length_scale, float noise_w, int64_t speaker,
                          float **audio, int64_t *audio_count, float **durations, int64_t *durations_count,
                          char *error, int32_t error_size);

void lectern_piper_free(float *values);

void lectern_piper_close(lectern_piper_session *session);

#ifdef __cplusplus
}
#endif
#endif
