// What the HEVC and AV1 plugins share (heif_plugins.h): the calling thread's limit, request and message buffer, and
// the plugin hooks that are the same in both.
#include "heif_plugins.h"

#ifdef BLZ_HEIF_PLUGINS

static _Thread_local uint64_t thread_pixel_limit;
static _Thread_local blz_heif_rgb_request thread_rgb_request;
static _Thread_local char thread_message[BLZ_HEIF_PLUGIN_MESSAGE_CAPACITY];

void blz_heif_plugins_set_pixel_limit(uint64_t maximum_pixels) {
    thread_pixel_limit = maximum_pixels;
}

uint64_t blz_heif_plugins_pixel_limit(void) {
    return thread_pixel_limit;
}

void blz_heif_plugins_set_rgb_request(blz_heif_rgb_request request) {
    thread_rgb_request = request;
}

blz_heif_rgb_request blz_heif_plugins_rgb_request(void) {
    return thread_rgb_request;
}

char *blz_heif_plugins_message(void) {
    return thread_message;
}

struct heif_error blz_heif_plugin_error(enum heif_error_code code, enum heif_suberror_code subcode, const char *text) {
    struct heif_error error = {code, subcode, text};
    return error;
}

struct heif_error blz_heif_plugin_out_of_memory(void) {
    return blz_heif_plugin_error(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "");
}

struct heif_error blz_heif_plugin_ok(void) {
    return blz_heif_plugin_error(heif_error_Ok, heif_suberror_Unspecified, "");
}

void blz_heif_plugin_no_setup(void) {}

void blz_heif_plugin_always_strict(void *decoder, int flag) {
    (void)decoder;
    (void)flag;
}

#endif // BLZ_HEIF_PLUGINS
