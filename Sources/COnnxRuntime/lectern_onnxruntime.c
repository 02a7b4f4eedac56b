// The C face of lectern_onnxruntime.h: onnxruntime's C API reached through OrtGetApiBase, resolved
// with dlsym from the library given at run time.
#include "lectern_onnxruntime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- The part of onnxruntime's C API used here ----------------------------------------------
// onnxruntime's OrtApi is a struct of function pointers that only ever grows at its end, so an
// entry's place is the same in every version that has it. Declared here in the header's order up
// to the last entry used (ReleaseSessionOptions, entry 100); the entries not used are `void *`
// placeholders. PiperEngineTests run a real model through it.

typedef struct OrtStatus OrtStatus;
typedef struct OrtEnv OrtEnv;
typedef struct OrtSession OrtSession;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtValue OrtValue;
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtAllocator OrtAllocator;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;

enum { LECTERN_ORT_LOGGING_ERROR = 3 };            // OrtLoggingLevel ORT_LOGGING_LEVEL_ERROR
enum { LECTERN_ORT_DEVICE_ALLOCATOR = 0 };         // OrtAllocatorType OrtDeviceAllocator
enum { LECTERN_ORT_MEM_TYPE_DEFAULT = 0 };         // OrtMemType OrtMemTypeDefault
enum { LECTERN_ORT_FLOAT = 1, LECTERN_ORT_INT64 = 7 };  // ONNXTensorElementDataType
enum { LECTERN_ORT_SEQUENTIAL = 0 };               // ExecutionMode ORT_SEQUENTIAL
enum { LECTERN_ORT_ENABLE_ALL = 99 };              // GraphOptimizationLevel ORT_ENABLE_ALL

typedef struct {
    void *CreateStatus, *GetErrorCode;                                                           // 0, 1
    const char *(*GetErrorMessage)(const OrtStatus *);                                           // 2
    OrtStatus *(*CreateEnv)(int level, const char *logid, OrtEnv **out);                          // 3
    void *CreateEnvWithCustomLogger, *EnableTelemetryEvents, *DisableTelemetryEvents;            // 4-6
    OrtStatus *(*CreateSession)(const OrtEnv *, const char *path, const OrtSessionOptions *, OrtSession **out);  // 7
    void *CreateSessionFromArray;                                                                // 8
    OrtStatus *(*Run)(OrtSession *, const void *run_options, const char *const *input_names,
                      const OrtValue *const *inputs, size_t input_count, const char *const *output_names,
                      size_t output_count, OrtValue **outputs);                                  // 9
    OrtStatus *(*CreateSessionOptions)(OrtSessionOptions **out);                                  // 10
    void *SetOptimizedModelFilePath, *CloneSessionOptions;                                       // 11, 12
    OrtStatus *(*SetSessionExecutionMode)(OrtSessionOptions *, int mode);                         // 13
    void *EnableProfiling, *DisableProfiling, *EnableMemPattern;                                 // 14-16
    OrtStatus *(*DisableMemPattern)(OrtSessionOptions *);                                         // 17
    void *EnableCpuMemArena;                                                                     // 18
    void *DisableCpuMemArena;                                                                    // 19
    void *SetSessionLogId, *SetSessionLogVerbosityLevel;                                         // 20, 21
    OrtStatus *(*SetSessionLogSeverityLevel)(OrtSessionOptions *, int level);                     // 22
    OrtStatus *(*SetSessionGraphOptimizationLevel)(OrtSessionOptions *, int level);               // 23
    OrtStatus *(*SetIntraOpNumThreads)(OrtSessionOptions *, int threads);                         // 24
    OrtStatus *(*SetInterOpNumThreads)(OrtSessionOptions *, int threads);                         // 25
    void *CreateCustomOpDomain, *CustomOpDomain_Add, *AddCustomOpDomain, *RegisterCustomOpsLibrary;  // 26-29
    OrtStatus *(*SessionGetInputCount)(const OrtSession *, size_t *out);                          // 30
    OrtStatus *(*SessionGetOutputCount)(const OrtSession *, size_t *out);                         // 31
    void *SessionGetOverridableInitializerCount, *SessionGetInputTypeInfo, *SessionGetOutputTypeInfo,
        *SessionGetOverridableInitializerTypeInfo;                                               // 32-35
    OrtStatus *(*SessionGetInputName)(const OrtSession *, size_t index, OrtAllocator *, char **out);   // 36
    OrtStatus *(*SessionGetOutputName)(const OrtSession *, size_t index, OrtAllocator *, char **out);  // 37
    void *SessionGetOverridableInitializerName, *CreateRunOptions, *RunOptionsSetRunLogVerbosityLevel,
        *RunOptionsSetRunLogSeverityLevel, *RunOptionsSetRunTag, *RunOptionsGetRunLogVerbosityLevel,
        *RunOptionsGetRunLogSeverityLevel, *RunOptionsGetRunTag, *RunOptionsSetTerminate,
        *RunOptionsUnsetTerminate, *CreateTensorAsOrtValue;                                       // 38-48
    OrtStatus *(*CreateTensorWithDataAsOrtValue)(const OrtMemoryInfo *, void *data, size_t bytes, const int64_t *shape,
                                                 size_t rank, int type, OrtValue **out);          // 49
    void *IsTensor;                                                                              // 50
    OrtStatus *(*GetTensorMutableData)(OrtValue *, void **out);                                   // 51
    void *FillStringTensor, *GetStringTensorDataLength, *GetStringTensorContent, *CastTypeInfoToTensorInfo,
        *GetOnnxTypeFromTypeInfo, *CreateTensorTypeAndShapeInfo, *SetTensorElementType, *SetDimensions,
        *GetTensorElementType, *GetDimensionsCount, *GetDimensions, *GetSymbolicDimensions;      // 52-63
    OrtStatus *(*GetTensorShapeElementCount)(const OrtTensorTypeAndShapeInfo *, size_t *out);     // 64
    OrtStatus *(*GetTensorTypeAndShape)(const OrtValue *, OrtTensorTypeAndShapeInfo **out);       // 65
    void *GetTypeInfo, *GetValueType, *CreateMemoryInfo;                                         // 66-68
    OrtStatus *(*CreateCpuMemoryInfo)(int allocator_type, int mem_type, OrtMemoryInfo **out);     // 69
    void *CompareMemoryInfo, *MemoryInfoGetName, *MemoryInfoGetId, *MemoryInfoGetMemType, *MemoryInfoGetType,
        *AllocatorAlloc;                                                                         // 70-75
    OrtStatus *(*AllocatorFree)(OrtAllocator *, void *);                                          // 76
    void *AllocatorGetInfo;                                                                      // 77
    OrtStatus *(*GetAllocatorWithDefaultOptions)(OrtAllocator **out);                             // 78
    void *AddFreeDimensionOverride, *GetValue, *GetValueCount, *CreateValue, *CreateOpaqueValue, *GetOpaqueValue,
        *KernelInfoGetAttribute_float, *KernelInfoGetAttribute_int64, *KernelInfoGetAttribute_string,
        *KernelContext_GetInputCount, *KernelContext_GetOutputCount, *KernelContext_GetInput,
        *KernelContext_GetOutput;                                                                // 79-91
    void (*ReleaseEnv)(OrtEnv *);                                                                // 92
    void (*ReleaseStatus)(OrtStatus *);                                                          // 93
    void (*ReleaseMemoryInfo)(OrtMemoryInfo *);                                                  // 94
    void (*ReleaseSession)(OrtSession *);                                                        // 95
    void (*ReleaseValue)(OrtValue *);                                                            // 96
    void *ReleaseRunOptions, *ReleaseTypeInfo;                                                   // 97, 98
    void (*ReleaseTensorTypeAndShapeInfo)(OrtTensorTypeAndShapeInfo *);                          // 99
    void (*ReleaseSessionOptions)(OrtSessionOptions *);                                          // 100
} OrtApi;

_Static_assert(offsetof(OrtApi, GetErrorMessage) == 2 * sizeof(void *), "OrtApi entry 2");
_Static_assert(offsetof(OrtApi, Run) == 9 * sizeof(void *), "OrtApi entry 9");
_Static_assert(offsetof(OrtApi, SetIntraOpNumThreads) == 24 * sizeof(void *), "OrtApi entry 24");
_Static_assert(offsetof(OrtApi, SessionGetInputName) == 36 * sizeof(void *), "OrtApi entry 36");
_Static_assert(offsetof(OrtApi, CreateTensorWithDataAsOrtValue) == 49 * sizeof(void *), "OrtApi entry 49");
_Static_assert(offsetof(OrtApi, GetTensorShapeElementCount) == 64 * sizeof(void *), "OrtApi entry 64");
_Static_assert(offsetof(OrtApi, CreateCpuMemoryInfo) == 69 * sizeof(void *), "OrtApi entry 69");
_Static_assert(offsetof(OrtApi, GetAllocatorWithDefaultOptions) == 78 * sizeof(void *), "OrtApi entry 78");
_Static_assert(offsetof(OrtApi, ReleaseEnv) == 92 * sizeof(void *), "OrtApi entry 92");
_Static_assert(offsetof(OrtApi, ReleaseSessionOptions) == 100 * sizeof(void *), "OrtApi entry 100");

typedef struct {
    const OrtApi *(*GetApi)(uint32_t version);
    const char *(*GetVersionString)(void);
} OrtApiBase;

/** The API version asked for: every entry above was in onnxruntime's first C API. */
#define LECTERN_ORT_API_VERSION 1

// ---- Process-wide state: the library, its API and one environment ----------------------------

/** Loaded once per process and kept (onnxruntime's threads and static state do not survive dlclose). */
static struct {
    pthread_mutex_t lock;
    const OrtApi *api;
    OrtEnv *env;
    OrtMemoryInfo *cpu;
    const char *version;
} ort = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL, NULL, ""};

struct lectern_piper_session {
    OrtSession *session;
    int takes_speaker;
    int has_durations;
};

const char *lectern_piper_runtime_version(void) { return ort.version; }

/** Writes `status`'s message after `what` into `error` and releases it; 1 when there was no error. */
static int ok(OrtStatus *status, const char *what, char *error, int32_t error_size) {
    if (status == NULL) return 1;
    snprintf(error, (size_t)error_size, "onnxruntime: %s: %s", what, ort.api->GetErrorMessage(status));
    ort.api->ReleaseStatus(status);
    return 0;
}

static int load(const char *library, char *error, int32_t error_size) {
    pthread_mutex_lock(&ort.lock);
    int loaded = ort.api != NULL;
    if (!loaded) {
        void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            const char *reason = dlerror();
            snprintf(error, (size_t)error_size, "cannot load %s: %s", library, reason ? reason : "unknown reason");
        } else {
            const OrtApiBase *(*get_base)(void) = (const OrtApiBase *(*)(void))dlsym(handle, "OrtGetApiBase");
            const OrtApiBase *base = get_base ? get_base() : NULL;
            const OrtApi *api = base ? base->GetApi(LECTERN_ORT_API_VERSION) : NULL;
            if (api == NULL) {
                snprintf(error, (size_t)error_size, "%s is not an onnxruntime library with its C API (no OrtGetApiBase)", library);
                dlclose(handle);
            } else {
                ort.api = api;
                ort.version = base->GetVersionString();
                OrtEnv *env = NULL;
                OrtMemoryInfo *cpu = NULL;
                if (ok(api->CreateEnv(LECTERN_ORT_LOGGING_ERROR, "lectern", &env), "creating its environment", error, error_size)
                    && ok(api->CreateCpuMemoryInfo(LECTERN_ORT_DEVICE_ALLOCATOR, LECTERN_ORT_MEM_TYPE_DEFAULT, &cpu),
                          "describing CPU memory", error, error_size)) {
                    ort.env = env;
                    ort.cpu = cpu;
                    loaded = 1;
                } else {
                    ort.api = NULL;
                }
            }
        }
    }
    pthread_mutex_unlock(&ort.lock);
    return loaded;
}

/** Whether the session has an input (`inputs` 1) or output (0) named `name`. */
static int has_name(OrtSession *session, int inputs, const char *name) {
    OrtAllocator *allocator = NULL;
    size_t count = 0;
    if (ort.api->GetAllocatorWithDefaultOptions(&allocator) != NULL) return 0;
    OrtStatus *status = inputs ? ort.api->SessionGetInputCount(session, &count) : ort.api->SessionGetOutputCount(session, &count);
    if (status != NULL) { ort.api->ReleaseStatus(status); return 0; }
    int found = 0;
    for (size_t i = 0; i < count && !found; i++) {
        char *value = NULL;
        status = inputs ? ort.api->SessionGetInputName(session, i, allocator, &value)
                        : ort.api->SessionGetOutputName(session, i, allocator, &value);
        if (status != NULL) { ort.api->ReleaseStatus(status); continue; }
        found = strcmp(value, name) == 0;
        ort.api->AllocatorFree(allocator, value);
    }
    return found;
}

lectern_piper_session *lectern_piper_open(const char *library, const char *model, int32_t threads, int32_t low_memory,
                                          char *error, int32_t error_size) {
    if (!load(library, error, error_size)) return NULL;
    const OrtApi *api = ort.api;
    OrtSessionOptions *options = NULL;
    if (!ok(api->CreateSessionOptions(&options), "creating session options", error, error_size)) return NULL;
    int set = ok(api->SetIntraOpNumThreads(options, threads > 0 ? threads : 1), "setting its threads", error, error_size)
        && ok(api->SetInterOpNumThreads(options, 1), "setting its threads", error, error_size)
        && ok(api->SetSessionExecutionMode(options, LECTERN_ORT_SEQUENTIAL), "setting sequential execution", error, error_size)
        && ok(api->SetSessionGraphOptimizationLevel(options, LECTERN_ORT_ENABLE_ALL), "setting graph optimizations", error, error_size)
        && ok(api->SetSessionLogSeverityLevel(options, LECTERN_ORT_LOGGING_ERROR), "setting its log level", error, error_size);
    // The memory pattern (planned for one input shape) is of no use when every sentence has
    // another; the CPU arena stays on: without it the peak was higher (glibc's heap fragments).
    if (set && low_memory) set = ok(api->DisableMemPattern(options), "turning the memory pattern off", error, error_size);
    OrtSession *session = NULL;
    if (set) {
        char what[512];
        snprintf(what, sizeof what, "loading %s", model);
        set = ok(api->CreateSession(ort.env, model, options, &session), what, error, error_size);
    }
    api->ReleaseSessionOptions(options);
    if (!set) return NULL;
    if (!has_name(session, 1, "input") || !has_name(session, 1, "input_lengths") || !has_name(session, 1, "scales")
        || !has_name(session, 0, "output")) {
        snprintf(error, (size_t)error_size,
                 "%s is not a Piper voice model (inputs input, input_lengths, scales and output output expected)", model);
        api->ReleaseSession(session);
        return NULL;
    }
    lectern_piper_session *result = calloc(1, sizeof *result);
    result->session = session;
    result->takes_speaker = has_name(session, 1, "sid");
    result->has_durations = has_name(session, 0, "durations");
    return result;
}

int32_t lectern_piper_takes_speaker(const lectern_piper_session *session) { return session->takes_speaker; }

int32_t lectern_piper_has_durations(const lectern_piper_session *session) { return session->has_durations; }

/** A copy of the float tensor `value`'s elements (malloc'ed), or NULL with a message in `error`. */
static float *copy_floats(OrtValue *value, int64_t *count, const char *name, char *error, int32_t error_size) {
    OrtTensorTypeAndShapeInfo *info = NULL;
    size_t elements = 0;
    void *data = NULL;
    if (!ok(ort.api->GetTensorTypeAndShape(value, &info), name, error, error_size)) return NULL;
    int fine = ok(ort.api->GetTensorShapeElementCount(info, &elements), name, error, error_size)
        && ok(ort.api->GetTensorMutableData(value, &data), name, error, error_size);
    ort.api->ReleaseTensorTypeAndShapeInfo(info);
    if (!fine) return NULL;
    float *copy = malloc(sizeof(float) * (elements > 0 ? elements : 1));
    if (elements > 0) memcpy(copy, data, sizeof(float) * elements);
    *count = (int64_t)elements;
    return copy;
}

int32_t lectern_piper_run(lectern_piper_session *session, const int64_t *ids, int64_t count,
                          float noise_scale, float length_scale, float noise_w, int64_t speaker,
                          float **audio, int64_t *audio_count, float **durations, int64_t *durations_count,
                          char *error, int32_t error_size) {
    const OrtApi *api = ort.api;
    *audio = NULL, *durations = NULL, *audio_count = 0, *durations_count = 0;
    if (count <= 0) {
        snprintf(error, (size_t)error_size, "no phonemes to speak");
        return 0;
    }
    int64_t lengths[1] = {count}, sid[1] = {speaker};
    float scales[3] = {noise_scale, length_scale, noise_w};
    int64_t ids_shape[2] = {1, count}, one[1] = {1}, three[1] = {3};
    OrtValue *inputs[4] = {NULL, NULL, NULL, NULL};
    const char *input_names[4] = {"input", "input_lengths", "scales", "sid"};
    size_t input_count = session->takes_speaker ? 4 : 3;
    int fine = ok(api->CreateTensorWithDataAsOrtValue(ort.cpu, (void *)ids, sizeof(int64_t) * (size_t)count, ids_shape, 2,
                                                      LECTERN_ORT_INT64, &inputs[0]), "input", error, error_size)
        && ok(api->CreateTensorWithDataAsOrtValue(ort.cpu, lengths, sizeof lengths, one, 1, LECTERN_ORT_INT64, &inputs[1]),
              "input_lengths", error, error_size)
        && ok(api->CreateTensorWithDataAsOrtValue(ort.cpu, scales, sizeof scales, three, 1, LECTERN_ORT_FLOAT, &inputs[2]),
              "scales", error, error_size)
        && (!session->takes_speaker
            || ok(api->CreateTensorWithDataAsOrtValue(ort.cpu, sid, sizeof sid, one, 1, LECTERN_ORT_INT64, &inputs[3]),
                  "sid", error, error_size));
    const char *output_names[2] = {"output", "durations"};
    size_t output_count = session->has_durations ? 2 : 1;
    OrtValue *outputs[2] = {NULL, NULL};
    if (fine) {
        fine = ok(api->Run(session->session, NULL, input_names, (const OrtValue *const *)inputs, input_count, output_names,
                           output_count, outputs), "running the model", error, error_size);
    }
    if (fine) *audio = copy_floats(outputs[0], audio_count, "output", error, error_size);
    if (fine && *audio == NULL) fine = 0;
    if (fine && session->has_durations) {
        *durations = copy_floats(outputs[1], durations_count, "durations", error, error_size);
        if (*durations == NULL) fine = 0;
    }
    for (int i = 0; i < 4; i++) if (inputs[i]) api->ReleaseValue(inputs[i]);
    for (int i = 0; i < 2; i++) if (outputs[i]) api->ReleaseValue(outputs[i]);
    if (!fine) {
        free(*audio), free(*durations);
        *audio = NULL, *durations = NULL, *audio_count = 0, *durations_count = 0;
    }
    return fine;
}

void lectern_piper_free(float *values) { free(values); }

void lectern_piper_close(lectern_piper_session *session) {
    if (session == NULL) return;
    ort.api->ReleaseSession(session->session);
    free(session);
}
