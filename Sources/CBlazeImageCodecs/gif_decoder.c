// GIF decoding with giflib: the first frame, from memory (DGifOpen with a read callback).
//
// Policy:
// - Only the records up to the first image are read (extensions skipped, the graphic control extension before
//   the image kept for its transparent index), then that image's rows: never the whole file (DGifSlurp would
//   decode every frame).
// - The size is the logical screen, enlarged to hold the first frame when the frame reaches past it (as
//   browsers do), so that the frame's own size is under the caller's pixel limit too.
// - Channels: 4 (RGBA) when the frame has a transparent index or does not cover the whole screen (the rest
//   is transparent, alpha 0, as browsers show it; GIF's background colour is not painted); otherwise 3 (RGB).
//   The frame's local colour table is used, else the global one; neither is CORRUPT. An index past the end of
//   the table is black, as in browsers. Interlaced rows are put back in order.
// - giflib's errors: a read past the end of the data makes the failure TRUNCATED (giflib then reports a failed
//   read, or an image that ends too soon); the rest are CORRUPT, or OUT_OF_MEMORY.
#include "decoder_internal.h"

#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>

struct blz_gif_state {
    GifFileType *gif;
    size_t offset;
    /// A read asked for bytes past the end of the data.
    int ended;
    /// The transparent colour index of the first frame, or -1.
    int transparent;
};

static int read_gif(GifFileType *gif, GifByteType *buffer, int length) {
    blz_decoder *decoder = (blz_decoder *)gif->UserData;
    struct blz_gif_state *state = decoder->gif;
    if (length <= 0) return 0;
    size_t count = (size_t)length;
    const size_t left = decoder->size - state->offset;
    if (count > left) {
        count = left;
        state->ended = 1;
    }
    memcpy(buffer, decoder->data + state->offset, count);
    state->offset += count;
    return (int)count;
}

static blz_status fail(blz_decoder *decoder, int code, const char *step) {
    const char *text = GifErrorString(code);
    if (text == NULL) text = "unknown giflib error";
    blz_status status = BLZ_STATUS_CORRUPT;
    if (decoder->gif->ended) status = BLZ_STATUS_TRUNCATED;
    else if (code == D_GIF_ERR_NOT_ENOUGH_MEM) status = BLZ_STATUS_OUT_OF_MEMORY;
    if (status == BLZ_STATUS_TRUNCATED) {
        blz_decoder_set_failure(decoder, status, "the data ends after %zu bytes, %s (%s)", decoder->size, step, text);
    } else {
        blz_decoder_set_failure(decoder, status, "%s: %s", step, text);
    }
    return status;
}

static blz_status blz_gif_read_header(blz_decoder *decoder) {
    struct blz_gif_state *state = blz_decoder_new_state(decoder, sizeof(struct blz_gif_state));
    if (state == NULL) return BLZ_STATUS_OUT_OF_MEMORY;
    state->transparent = -1;
    int code = 0;
    state->gif = DGifOpen(decoder, read_gif, &code);
    if (state->gif == NULL) return fail(decoder, code, "reading the screen descriptor");
    GifFileType *gif = state->gif;

    for (;;) { // Every record consumes input, so this ends with the data.
        GifRecordType type = UNDEFINED_RECORD_TYPE;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) return fail(decoder, gif->Error, "before the first image");
        if (type == IMAGE_DESC_RECORD_TYPE) break;
        if (type == TERMINATE_RECORD_TYPE) {
            return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "the GIF ends without an image");
        }
        if (type != EXTENSION_RECORD_TYPE) {
            return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "unexpected GIF record type %d", (int)type);
        }
        int function = 0;
        GifByteType *block = NULL;
        if (DGifGetExtension(gif, &function, &block) == GIF_ERROR) {
            return fail(decoder, gif->Error, "in an extension");
        }
        if (function == GRAPHICS_EXT_FUNC_CODE && block != NULL) {
            GraphicsControlBlock control;
            // block[0] is the sub-block's length; DGifExtensionToGCB wants exactly 4 bytes.
            state->transparent = DGifExtensionToGCB(block[0], block + 1, &control) == GIF_OK
                                     ? control.TransparentColor : -1;
        }
        while (block != NULL) {
            if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return fail(decoder, gif->Error, "in an extension");
        }
    }
    if (DGifGetImageDesc(gif) == GIF_ERROR) return fail(decoder, gif->Error, "in the first image's descriptor");

    const GifImageDesc *frame = &gif->Image;
    if (frame->Width <= 0 || frame->Height <= 0) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_ZERO_SIZE, "the first GIF frame is %d x %d", frame->Width,
                                       frame->Height);
    }
    if (frame->ColorMap == NULL && gif->SColorMap == NULL) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "the GIF has no colour table for its first frame");
    }
    const uint32_t right = (uint32_t)frame->Left + (uint32_t)frame->Width;
    const uint32_t bottom = (uint32_t)frame->Top + (uint32_t)frame->Height;
    const uint32_t width = gif->SWidth > 0 && (uint32_t)gif->SWidth > right ? (uint32_t)gif->SWidth : right;
    const uint32_t height = gif->SHeight > 0 && (uint32_t)gif->SHeight > bottom ? (uint32_t)gif->SHeight : bottom;
    const int covers = frame->Left == 0 && frame->Top == 0 && right == width && bottom == height;
    decoder->header.width = width;
    decoder->header.height = height;
    decoder->header.channels = state->transparent >= 0 || !covers ? 4 : 3;
    return BLZ_STATUS_OK;
}

static blz_status blz_gif_read_pixels(blz_decoder *decoder, uint8_t *pixels) {
    struct blz_gif_state *state = decoder->gif;
    GifFileType *gif = state->gif;
    const GifImageDesc *frame = &gif->Image;
    const ColorMapObject *map = frame->ColorMap != NULL ? frame->ColorMap : gif->SColorMap;
    const size_t width = decoder->header.width, channels = decoder->header.channels;
    const size_t frame_width = (size_t)frame->Width, frame_height = (size_t)frame->Height;
    GifPixelType *row = malloc(frame_width);
    if (row == NULL) return blz_decoder_set_failure(decoder, BLZ_STATUS_OUT_OF_MEMORY, "out of memory");
    if (channels == 4) memset(pixels, 0, width * decoder->header.height * 4);
    // Interlaced frames store rows 0, 8, 16, ..., then 4, 12, ..., then 2, 6, ..., then 1, 3, ...
    static const size_t starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
    const int passes = frame->Interlace ? 4 : 1;
    for (int pass = 0; pass < passes; pass++) {
        const size_t start = frame->Interlace ? starts[pass] : 0, step = frame->Interlace ? steps[pass] : 1;
        for (size_t y = start; y < frame_height; y += step) {
            if (DGifGetLine(gif, row, (int)frame_width) == GIF_ERROR) {
                free(row);
                return fail(decoder, gif->Error, "in the first image's data");
            }
            uint8_t *output = pixels + (((size_t)frame->Top + y) * width + (size_t)frame->Left) * channels;
            for (size_t x = 0; x < frame_width; x++, output += channels) {
                const int index = row[x];
                if (index == state->transparent) continue; // stays 0, 0, 0, 0
                if (index < map->ColorCount) {
                    output[0] = map->Colors[index].Red;
                    output[1] = map->Colors[index].Green;
                    output[2] = map->Colors[index].Blue;
                } else {
                    output[0] = output[1] = output[2] = 0;
                }
                if (channels == 4) output[3] = 255;
            }
        }
    }
    free(row);
    return BLZ_STATUS_OK;
}

static void blz_gif_release(blz_decoder *decoder) {
    struct blz_gif_state *state = decoder->gif;
    if (state->gif != NULL) {
        int code = 0;
        DGifCloseFile(state->gif, &code);
    }
}

const blz_codec_backend blz_gif_backend = {blz_gif_read_header, NULL, blz_gif_read_pixels, blz_gif_release};
