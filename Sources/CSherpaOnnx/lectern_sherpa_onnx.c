// The C face of lectern_sherpa_onnx.h. With sherpa-onnx's header installed (`make piper`, which
// also touches this file so that it is compiled again), it resolves the few C API functions the
// Piper engine calls with dlsym; without it, every call reports that sherpa-onnx is not built in.
#include "lectern_sherpa_onnx.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __has_include("../../.piper/sherpa_onnx/include/sherpa-onnx/c-api/c-api.h")
#include "../../.piper/sherpa_onnx/include/sherpa-onnx/c-api/c-api.h"

typedef const SherpaOnnxOfflineTts *(*create_fn)(const SherpaOnnxOfflineTtsConfig *);
typedef void (*destroy_fn)(const SherpaOnnxOfflineTts *);
typedef int32_t (*sample_rate_fn)(const SherpaOnnxOfflineTts *);
typedef const SherpaOnnxGeneratedAudio *(*generate_fn)(const SherpaOnnxOfflineTts *, const char *,
                                                       const SherpaOnnxGenerationConfig *,
                                                       SherpaOnnxGeneratedAudioProgressCallbackWithArg, void *);
typedef void (*destroy_audio_fn)(const SherpaOnnxGeneratedAudio *);

/** The library's functions, resolved once per process; the library stays loaded (onnxruntime's
    threads and static state do not survive dlclose). */
static struct {
    pthread_mutex_t lock;
    void *handle;
    create_fn create;
    destroy_fn destroy;
    sample_rate_fn sample_rate;
    generate_fn generate;
    destroy_audio_fn destroy_audio;
} api = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL, NULL, NULL, NULL, NULL};

struct lectern_sherpa_onnx_tts {
    const SherpaOnnxOfflineTts *tts;
};

int lectern_sherpa_onnx_compiled(void) { return 1; }

static int load(const char *library, char *error, int32_t error_size) {
    pthread_mutex_lock(&api.lock);
    if (api.handle == NULL) {
        void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            const char *reason = dlerror();
            snprintf(error, (size_t)error_size, "cannot load %s: %s", library, reason ? reason : "unknown reason");
            pthread_mutex_unlock(&api.lock);
            return 0;
        }
        const char *names[] = {"SherpaOnnxCreateOfflineTts", "SherpaOnnxDestroyOfflineTts", "SherpaOnnxOfflineTtsSampleRate",
                               "SherpaOnnxOfflineTtsGenerateWithConfig", "SherpaOnnxDestroyOfflineTtsGeneratedAudio"};
        void *symbols[5];
        for (int i = 0; i < 5; i++) {
            symbols[i] = dlsym(handle, names[i]);
            if (symbols[i] == NULL) {
                snprintf(error, (size_t)error_size, "%s has no %s: a sherpa-onnx older than 2.0 is installed (run `make piper`)",
                         library, names[i]);
                dlclose(handle);
                pthread_mutex_unlock(&api.lock);
                return 0;
            }
        }
        api.create = (create_fn)symbols[0];
        api.destroy = (destroy_fn)symbols[1];
        api.sample_rate = (sample_rate_fn)symbols[2];
        api.generate = (generate_fn)symbols[3];
        api.destroy_audio = (destroy_audio_fn)symbols[4];
        api.handle = handle;
    }
    pthread_mutex_unlock(&api.lock);
    return 1;
}

lectern_sherpa_onnx_tts *lectern_sherpa_onnx_create(const char *library, const char *model, const char *tokens,
                                                    int32_t threads, float noise_scale, float noise_scale_w,
                                                    float length_scale, char *error, int32_t error_size) {
    if (!load(library, error, error_size)) return NULL;
    SherpaOnnxOfflineTtsConfig config;
    memset(&config, 0, sizeof config);
    config.model.vits.model = model;
    config.model.vits.tokens = tokens;
    config.model.vits.noise_scale = noise_scale;
    config.model.vits.noise_scale_w = noise_scale_w;
    config.model.vits.length_scale = length_scale;
    config.model.num_threads = threads;
    config.model.provider = "cpu";
    config.max_num_sentences = 1;
    const SherpaOnnxOfflineTts *tts = api.create(&config);
    if (tts == NULL) {
        snprintf(error, (size_t)error_size,
                 "sherpa-onnx cannot load the voice %s with %s (is it a Piper voice prepared by Scripts/prepare-piper-voice.py?)",
                 model, tokens);
        return NULL;
    }
    lectern_sherpa_onnx_tts *result = malloc(sizeof *result);
    result->tts = tts;
    return result;
}

int32_t lectern_sherpa_onnx_sample_rate(const lectern_sherpa_onnx_tts *tts) { return api.sample_rate(tts->tts); }

float *lectern_sherpa_onnx_generate(lectern_sherpa_onnx_tts *tts, const int32_t *codepoints, int32_t codepoint_count,
                                    float speed, int32_t *count, char *error, int32_t error_size) {
    *count = 0;
    if (codepoint_count <= 0) {
        snprintf(error, (size_t)error_size, "no phonemes to speak");
        return NULL;
    }
    SherpaOnnxGenerationConfig config;
    memset(&config, 0, sizeof config);
    config.speed = speed;
    config.silence_scale = 1.0f;
    config.phoneme_codepoints = codepoints;
    config.phoneme_codepoints_lens = &codepoint_count;
    config.phoneme_codepoints_num_sentences = 1;
    const SherpaOnnxGeneratedAudio *audio = api.generate(tts->tts, "", &config, NULL, NULL);
    if (audio == NULL || audio->n < 0) {
        snprintf(error, (size_t)error_size, "sherpa-onnx could not synthesize %d phonemes", codepoint_count);
        if (audio) api.destroy_audio(audio);
        return NULL;
    }
    float *samples = malloc(sizeof(float) * (size_t)(audio->n > 0 ? audio->n : 1));
    if (audio->n > 0) memcpy(samples, audio->samples, sizeof(float) * (size_t)audio->n);
    *count = audio->n;
    api.destroy_audio(audio);
    return samples;
}

void lectern_sherpa_onnx_destroy(lectern_sherpa_onnx_tts *tts) {
    if (tts == NULL) return;
    api.destroy(tts->tts);
    free(tts);
}

#else

struct lectern_sherpa_onnx_tts {
    int unused;
};

int lectern_sherpa_onnx_compiled(void) { return 0; }

lectern_sherpa_onnx_tts *lectern_sherpa_onnx_create(const char *library, const char *model, const char *tokens,
                                                    int32_t threads, float noise_scale, float noise_scale_w,
                                                    float length_scale, char *error, int32_t error_size) {
    (void)library, (void)model, (void)tokens, (void)threads, (void)noise_scale, (void)noise_scale_w, (void)length_scale;
    snprintf(error, (size_t)error_size, "this lectern was built without sherpa-onnx (run `make piper`, then build again)");
    return NULL;
}

int32_t lectern_sherpa_onnx_sample_rate(const lectern_sherpa_onnx_tts *tts) { (void)tts; return 0; }

float *lectern_sherpa_onnx_generate(lectern_sherpa_onnx_tts *tts, const int32_t *codepoints, int32_t codepoint_count,
                                    float speed, int32_t *count, char *error, int32_t error_size) {
    (void)tts, (void)codepoints, (void)codepoint_count, (void)speed;
    *count = 0;
    snprintf(error, (size_t)error_size, "this lectern was built without sherpa-onnx (run `make piper`, then build again)");
    return NULL;
}

void lectern_sherpa_onnx_destroy(lectern_sherpa_onnx_tts *tts) { (void)tts; }

#endif

void lectern_sherpa_onnx_free_samples(float *samples) { free(samples); }
