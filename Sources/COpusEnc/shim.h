#include <opusenc.h>
#include <opus.h>

/* ope_encoder_ctl is variadic, which Swift cannot call: one fixed-signature face for the requests
   that take one integer (OPE_SET_SERIALNO, OPUS_SET_BITRATE, OPUS_SET_COMPLEXITY, ...). */
static inline int copusenc_set_int(OggOpusEnc *enc, int request, opus_int32 value) {
    return ope_encoder_ctl(enc, request, value);
}

/* OPE_SET_PACKET_CALLBACK: each packet libopusenc makes (the two header packets first) handed to
   `callback` with `user_data`, besides the pages it writes. */
static inline int copusenc_set_packet_callback(OggOpusEnc *enc, ope_packet_func callback, void *user_data) {
    return ope_encoder_ctl(enc, OPE_SET_PACKET_CALLBACK_REQUEST, callback, user_data);
}
