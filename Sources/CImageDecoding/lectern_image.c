#include "lectern_image.h"
#include <png.h>
#include <stdio.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

static void set_message(lectern_image_result *result, const char *message) {
    snprintf(result->message, sizeof result->message, "%s", message ? message : "unknown error");
}

/* ---- PNG: libpng's standard API, one reused row buffer (interlaced passes decode into it too). */

typedef struct {
    const unsigned char *data;
    size_t size, offset;
    lectern_image_result *result;
} png_source;

static void png_read_memory(png_structp png, png_bytep out, png_size_t count) {
    png_source *source = png_get_io_ptr(png);
    if (count > source->size - source->offset) png_error(png, "the file ends before the picture does (truncated)");
    memcpy(out, source->data + source->offset, count);
    source->offset += count;
}

static void png_on_error(png_structp png, png_const_charp message) {
    png_source *source = png_get_error_ptr(png);
    set_message(source->result, message);
    png_longjmp(png, 1);
}

/* Warnings about the picture's data (CRC in an ancillary chunk, extra data) refuse it; those
 * about colour metadata (iCCP, sRGB, gAMA, cHRM …) do not: players ignore them. */
static void png_on_warning(png_structp png, png_const_charp message) {
    png_source *source = png_get_error_ptr(png);
    static const char *harmless[] = {"iCCP", "sRGB", "gAMA", "cHRM", "tEXt", "zTXt", "iTXt", "tIME", "pHYs", "bKGD", "sBIT", "eXIf", NULL};
    for (int i = 0; harmless[i]; i++) if (strncmp(message, harmless[i], 4) == 0) return;
    if (source->result->message[0] == 0) set_message(source->result, message);
}

void lectern_image_decode_png(const unsigned char *data, size_t size, unsigned long max_pixels, lectern_image_result *result) {
    memset(result, 0, sizeof *result);
    png_source source = {data, size, 0, result};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, png_on_error, png_on_warning);
    if (!png) { set_message(result, "libpng could not start"); return; }
    png_infop info = png_create_info_struct(png);
    png_bytep volatile row = NULL;
    if (!info) { png_destroy_read_struct(&png, NULL, NULL); set_message(result, "libpng could not start"); return; }
    if (setjmp(png_jmpbuf(png))) {
        free(row);
        png_destroy_read_struct(&png, &info, NULL);
        result->ok = 0;
        return;
    }
    png_set_read_fn(png, &source, png_read_memory);
    /* CRC errors in any chunk are errors, not warnings to skip past. */
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    png_read_info(png, info);
    result->width = png_get_image_width(png, info);
    result->height = png_get_image_height(png, info);
    if ((unsigned long)result->width * result->height > max_pixels) {
        snprintf(result->message, sizeof result->message, "%u×%u pixels is more than the %lu a cover may have",
                 result->width, result->height, max_pixels);
        png_destroy_read_struct(&png, &info, NULL);
        return;
    }
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    row = malloc(png_get_rowbytes(png, info));
    if (!row) png_error(png, "out of memory");
    for (int pass = 0; pass < passes; pass++)
        for (png_uint_32 y = 0; y < result->height; y++) png_read_row(png, row, NULL);
    png_read_end(png, info);  /* reads up to IEND: later chunks' CRCs, "extra compressed data" */
    free(row);
    png_destroy_read_struct(&png, &info, NULL);
    result->ok = result->message[0] == 0;
}

/* ---- JPEG: libjpeg-turbo with an error_exit that longjmps instead of exiting. */

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    lectern_image_result *result;
} jpeg_errors;

static void jpeg_on_error(j_common_ptr cinfo) {
    jpeg_errors *errors = (jpeg_errors *)cinfo->err;
    char buffer[JMSG_LENGTH_MAX];
    errors->base.format_message(cinfo, buffer);
    set_message(errors->result, buffer);
    longjmp(errors->jump, 1);
}

/* Warnings (level -1) are kept, the first one; trace messages are ignored. */
static void jpeg_on_message(j_common_ptr cinfo, int level) {
    jpeg_errors *errors = (jpeg_errors *)cinfo->err;
    if (level >= 0) return;
    errors->base.num_warnings++;
    if (errors->result->message[0] == 0) {
        char buffer[JMSG_LENGTH_MAX];
        errors->base.format_message(cinfo, buffer);
        set_message(errors->result, buffer);
    }
}

void lectern_image_decode_jpeg(const unsigned char *data, size_t size, unsigned long max_pixels, long max_memory,
                               lectern_image_result *result) {
    memset(result, 0, sizeof *result);
    struct jpeg_decompress_struct cinfo;
    jpeg_errors errors;
    JSAMPARRAY row = NULL;
    cinfo.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = jpeg_on_error;
    errors.base.emit_message = jpeg_on_message;
    errors.result = result;
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&cinfo);
        result->ok = 0;
        return;
    }
    jpeg_create_decompress(&cinfo);
    cinfo.mem->max_memory_to_use = max_memory;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    result->width = cinfo.image_width;
    result->height = cinfo.image_height;
    if ((unsigned long)cinfo.image_width * cinfo.image_height > max_pixels) {
        snprintf(result->message, sizeof result->message, "%u×%u pixels is more than the %lu a cover may have",
                 cinfo.image_width, cinfo.image_height, max_pixels);
        jpeg_destroy_decompress(&cinfo);
        return;
    }
    jpeg_start_decompress(&cinfo);
    row = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE, cinfo.output_width * cinfo.output_components, 1);
    while (cinfo.output_scanline < cinfo.output_height) jpeg_read_scanlines(&cinfo, row, 1);
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    result->ok = errors.base.num_warnings == 0 && result->message[0] == 0;
}
