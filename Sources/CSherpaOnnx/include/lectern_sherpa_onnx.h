#ifndef LECTERN_SHERPA_ONNX_H
#define LECTERN_SHERPA_ONNX_H
/* A small C face over sherpa-onnx's offline TTS C API (PyPI sherpa-onnx-core, installed by
   `make piper` into .piper/), for the Piper engine. The library is loaded at run time (dlopen),
   never linked, so that Lectern builds and runs without it; this file's own API is the same
   whether or not sherpa-onnx's header was there when it was compiled. */
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/** 1 when sherpa-onnx's C API header was found at build time (.piper/sherpa_onnx/include), else 0. */
int lectern_sherpa_onnx_compiled(void);

/** One loaded Piper (VITS) voice. Not thread-safe: one caller at a time. */
typedef struct lectern_sherpa_onnx_tts lectern_sherpa_onnx_tts;

/** Loads the library at `library` (once per process) and the voice `model` with its `tokens` file.
    Returns NULL on failure, with a message in `error`. */
lectern_sherpa_onnx_tts *lectern_sherpa_onnx_create(const char *library, const char *model, const char *tokens,
                                                    int32_t threads, float noise_scale, float noise_scale_w,
                                                    float length_scale, char *error, int32_t error_size);

/** The voice's output sample rate. */
int32_t lectern_sherpa_onnx_sample_rate(const lectern_sherpa_onnx_tts *tts);

/** Speaks one sentence given as phoneme codepoints (IPA, as espeak-ng writes it), `speed` > 1
    faster. Returns `*count` samples in −1…1 (free with lectern_sherpa_onnx_free_samples), or NULL
    with a message in `error`. */
float *lectern_sherpa_onnx_generate(lectern_sherpa_onnx_tts *tts, const int32_t *codepoints, int32_t codepoint_count,
                                    float speed, int32_t *count, char *error, int32_t error_size);

void lectern_sherpa_onnx_free_samples(float *samples);

void lectern_sherpa_onnx_destroy(lectern_sherpa_onnx_tts *tts);

#ifdef __cplusplus
}
#endif
#endif
