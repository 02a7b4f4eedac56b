#include <opusenc.h>

/* ope_encoder_ctl is variadic, which Swift cannot call: one fixed-signature face for the requests
   that take one integer (OPE_SET_SERIALNO, OPUS_SET_BITRATE, OPUS_SET_COMPLEXITY, ...). */
static inline int copusenc_set_int(OggOpusEnc *enc, int request, opus_int32 value) {
    return ope_encoder_ctl(enc, request, value);
}

