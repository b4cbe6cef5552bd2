// The picture size an HEVC sequence parameter set declares, read before the decoder allocates for it (heif_plugins.h).
#include "heif_plugins.h"

#ifdef BLZ_HEIF_PLUGINS

/// Bits of a NAL unit's payload, with the emulation-prevention bytes (00 00 03) taken out.
typedef struct bit_reader {
    const uint8_t *data;
    size_t size, byte;
    int bit;       // next bit of data[byte], 7 (most significant) to 0
    int zeros;     // zero bytes just read, for emulation prevention
    int overrun;
} bit_reader;

static unsigned read_bit(bit_reader *reader) {
    if (reader->bit == 7 && reader->byte < reader->size && reader->zeros >= 2 && reader->data[reader->byte] == 3) {
        reader->byte++;  // an emulation-prevention byte
        reader->zeros = 0;
    }
    if (reader->byte >= reader->size) {
        reader->overrun = 1;
        return 0;
    }
    const uint8_t byte = reader->data[reader->byte];
    const unsigned value = (byte >> reader->bit) & 1;
    if (--reader->bit < 0) {
        reader->bit = 7;
        reader->zeros = byte == 0 ? reader->zeros + 1 : 0;
        reader->byte++;
    }
    return value;
}

static uint32_t read_bits(bit_reader *reader, int count) {
    uint32_t value = 0;
    for (int i = 0; i < count; i++) value = value << 1 | read_bit(reader);
    return value;
}

/// ue(v): Exp-Golomb; an overlong code is an overrun.
static uint32_t read_ue(bit_reader *reader) {
    int zeros = 0;
    while (read_bit(reader) == 0) {
        if (++zeros > 31 || reader->overrun) {
            reader->overrun = 1;
            return 0;
        }
    }
    return (uint32_t)((1ull << zeros) - 1 + read_bits(reader, zeros));
}

/// Reads only the fields up to pic_width_in_luma_samples and pic_height_in_luma_samples; the decoder parses the
/// whole unit afterwards.
int blz_hevc_sps_picture_size(const uint8_t *nal, size_t size, uint32_t *width, uint32_t *height) {
    bit_reader reader = {nal, size, 2, 7, 0, 0};  // after the 2-byte NAL unit header
    (void)read_bits(&reader, 4);                   // sps_video_parameter_set_id
    const int sub_layers = (int)read_bits(&reader, 3);  // sps_max_sub_layers_minus1
    (void)read_bits(&reader, 1);                   // sps_temporal_id_nesting_flag
    (void)read_bits(&reader, 32);                  // profile_tier_level: general profile space ... flags
    (void)read_bits(&reader, 32);
    (void)read_bits(&reader, 24);
    (void)read_bits(&reader, 8);                   // general_level_idc
    int profile_present[8] = {0}, level_present[8] = {0};
    for (int i = 0; i < sub_layers; i++) {
        profile_present[i] = (int)read_bits(&reader, 1);
        level_present[i] = (int)read_bits(&reader, 1);
    }
    if (sub_layers > 0) {
        for (int i = sub_layers; i < 8; i++) (void)read_bits(&reader, 2);  // reserved_zero_2bits
    }
    for (int i = 0; i < sub_layers; i++) {
        if (profile_present[i]) {
            (void)read_bits(&reader, 32);
            (void)read_bits(&reader, 32);
            (void)read_bits(&reader, 24);
        }
        if (level_present[i]) (void)read_bits(&reader, 8);
    }
    (void)read_ue(&reader);                        // sps_seq_parameter_set_id
    if (read_ue(&reader) == 3) (void)read_bits(&reader, 1);  // chroma_format_idc, separate_colour_plane_flag
    *width = read_ue(&reader);
    *height = read_ue(&reader);
    return !reader.overrun;
}

#endif // BLZ_HEIF_PLUGINS
