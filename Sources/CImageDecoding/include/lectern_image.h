#ifndef LECTERN_IMAGE_H
#define LECTERN_IMAGE_H
/* A C face for decoding a whole PNG (libpng) or JPEG (libjpeg-turbo) from memory, row by row, to
 * tell a picture that decodes from one that only has a good header. Neither library's error
 * handling may end the process: both are caught (setjmp/longjmp) and become a message. */
#include <stddef.h>

/** The outcome of one decode. */
typedef struct {
    /** 1 when every row decoded without an error or a warning about the data. */
    int ok;
    /** The picture's size from its header (0 when the header could not be read). */
    unsigned width, height;
    /** Why it did not decode (the library's message), when `ok` is 0. */
    char message[200];
} lectern_image_result;

/** Decodes every row of a PNG of `size` bytes; refuses a picture of more than `max_pixels`
 * pixels before decoding it. Thread-safe. */
void lectern_image_decode_png(const unsigned char *data, size_t size, unsigned long max_pixels, lectern_image_result *result);

/** Decodes every scanline of a JPEG of `size` bytes, in at most `max_memory` bytes of libjpeg's
 * working memory; refuses a picture of more than `max_pixels` pixels before decoding it. Any
 * libjpeg warning (corrupt data, premature end) is a refusal. Thread-safe. */
void lectern_image_decode_jpeg(const unsigned char *data, size_t size, unsigned long max_pixels, long max_memory,
                               lectern_image_result *result);

#endif
