// How deep a HEIF file's images derive from one another, read before libheif decodes them.
//
// Why: libheif decodes a derived image (a grid, an `iden`, an overlay) by decoding the images it refers to
// ('dimg' references), and an image's alpha plane by decoding the image that refers to it ('auxl'), recursively,
// and libheif 1.15 (Debian 12's) checks neither for a cycle nor for depth: a 1 KB grid that lists itself among its
// tiles recursed until the stack overflowed, with libheif's own codecs as with this package's (fuzz-image found
// it). libheif offers no reading of item references before 1.18, so the `iref` boxes are read here: only box
// headers and the reference lists (ISO/IEC 14496-12 8.11.12), every length checked against the data.
//
// The rule: following 'dimg' (from a derived image to its inputs) and 'auxl' (from an image to its auxiliary
// image, the alpha plane among them) references, no path may return to an image it started from nor pass through
// more than BLZ_HEIF_MAX_DERIVATION images (real files: a grid of tiles is 2, an `iden` of a grid with alpha 4).
// Memory: one entry per reference read, at most the data's size over 2 bytes.
#include "decoder_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct reference {
    uint32_t from, to;
} reference;

typedef struct graph {
    reference *edges;  // sorted by `from`
    size_t count, capacity;
    uint32_t *nodes;   // the distinct `from` values, sorted
    uint8_t *state;    // per node: 0 not seen, 1 on the current path, 2 done
    uint8_t *height;   // per node, when done: the most images on a path from it
    size_t node_count;
} graph;

static uint32_t read_u32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/// The box at `offset` within [offset, end): its type, payload start and end. 0 when it does not fit.
static int box_at(const uint8_t *data, size_t offset, size_t end, uint32_t *type, size_t *payload, size_t *box_end) {
    if (end - offset < 8) return 0;
    uint64_t size = read_u32(data + offset);
    *type = read_u32(data + offset + 4);
    size_t header = 8;
    if (size == 1) {
        if (end - offset < 16) return 0;
        size = (uint64_t)read_u32(data + offset + 8) << 32 | read_u32(data + offset + 12);
        header = 16;
    } else if (size == 0) {
        size = end - offset;
    }
    if (size < header || size > end - offset) return 0;
    *payload = offset + header;
    *box_end = offset + (size_t)size;
    return 1;
}

#define FOURCC(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static int add_edge(graph *g, uint32_t from, uint32_t to) {
    if (g->count == g->capacity) {
        const size_t capacity = g->capacity == 0 ? 64 : g->capacity * 2;
        reference *grown = realloc(g->edges, capacity * sizeof(reference));
        if (grown == NULL) return 0;
        g->edges = grown;
        g->capacity = capacity;
    }
    g->edges[g->count++] = (reference){from, to};
    return 1;
}

/// The references of one `iref` payload (a full box: version 0 has 16-bit item IDs, 1 has 32-bit ones).
static int read_iref(graph *g, const uint8_t *data, size_t offset, size_t end) {
    if (end - offset < 4) return 1;
    const size_t id_size = data[offset] == 0 ? 2 : 4;
    offset += 4;
    uint32_t type;
    size_t payload, box_end;
    while (offset < end && box_at(data, offset, end, &type, &payload, &box_end)) {
        if ((type == FOURCC('d', 'i', 'm', 'g') || type == FOURCC('a', 'u', 'x', 'l'))
            && box_end - payload >= id_size + 2) {
            const uint8_t *p = data + payload;
            const uint32_t from = id_size == 2 ? (uint32_t)(p[0] << 8 | p[1]) : read_u32(p);
            const size_t count = (size_t)(p[id_size] << 8 | p[id_size + 1]);
            const size_t listed = (box_end - payload - id_size - 2) / id_size;
            p += id_size + 2;
            for (size_t i = 0; i < count && i < listed; i++, p += id_size) {
                const uint32_t to = id_size == 2 ? (uint32_t)(p[0] << 8 | p[1]) : read_u32(p);
                // An alpha image refers to its master ('auxl'): libheif goes from the master to it.
                const int ok = type == FOURCC('a', 'u', 'x', 'l') ? add_edge(g, to, from) : add_edge(g, from, to);
                if (!ok) return 0;
            }
        }
        offset = box_end;
    }
    return 1;
}

static int compare_edges(const void *a, const void *b) {
    const reference *x = a, *y = b;
    return x->from < y->from ? -1 : x->from > y->from ? 1 : (x->to > y->to) - (x->to < y->to);
}

/// The index of `id` among the nodes, or node_count when it has no references.
static size_t node_index(const graph *g, uint32_t id) {
    size_t low = 0, high = g->node_count;
    while (low < high) {
        const size_t middle = low + (high - low) / 2;
        if (g->nodes[middle] < id) low = middle + 1;
        else high = middle;
    }
    return low < g->node_count && g->nodes[low] == id ? low : g->node_count;
}

/// The most images on a path from `id` (1 for an image without references), or 0 for a cycle or a path longer
/// than the limit. Recursion depth is at most the limit.
static unsigned height_of(graph *g, uint32_t id, unsigned depth) {
    if (depth > BLZ_HEIF_MAX_DERIVATION) return 0;
    const size_t node = node_index(g, id);
    if (node == g->node_count) return 1;
    if (g->state[node] == 1) return 0;
    if (g->state[node] == 2) return depth + g->height[node] - 1 <= BLZ_HEIF_MAX_DERIVATION ? g->height[node] : 0;
    g->state[node] = 1;
    unsigned height = 1;
    // The node's edges are contiguous: find the first with a binary search over `edges`.
    size_t first = 0, last = g->count;
    while (first < last) {
        const size_t middle = first + (last - first) / 2;
        if (g->edges[middle].from < id) first = middle + 1;
        else last = middle;
    }
    for (size_t e = first; e < g->count && g->edges[e].from == id; e++) {
        if (e > first && g->edges[e].to == g->edges[e - 1].to) continue;
        const unsigned below = height_of(g, g->edges[e].to, depth + 1);
        if (below == 0) return 0;
        if (below + 1 > height) height = below + 1;
    }
    g->state[node] = 2;
    g->height[node] = (uint8_t)height;
    return height;
}

int blz_heif_references_are_bounded(const uint8_t *data, size_t size) {
    graph g = {0};
    int result = 1;
    uint32_t type;
    size_t payload, box_end;
    for (size_t offset = 0; offset < size && box_at(data, offset, size, &type, &payload, &box_end);
         offset = box_end) {
        if (type != FOURCC('m', 'e', 't', 'a') || box_end - payload < 4) continue;
        size_t inner = payload + 4;  // a full box: version and flags
        size_t inner_payload, inner_end;
        for (; inner < box_end && box_at(data, inner, box_end, &type, &inner_payload, &inner_end); inner = inner_end) {
            if (type == FOURCC('i', 'r', 'e', 'f') && !read_iref(&g, data, inner_payload, inner_end)) result = -1;
        }
    }
    if (result == 1 && g.count > 0) {
        qsort(g.edges, g.count, sizeof(reference), compare_edges);
        g.nodes = malloc(g.count * sizeof(uint32_t));
        g.state = calloc(g.count, 1);
        g.height = calloc(g.count, 1);
        if (g.nodes == NULL || g.state == NULL || g.height == NULL) {
            result = -1;
        } else {
            for (size_t e = 0; e < g.count; e++) {
                if (g.node_count == 0 || g.nodes[g.node_count - 1] != g.edges[e].from) {
                    g.nodes[g.node_count++] = g.edges[e].from;
                }
            }
            for (size_t n = 0; n < g.node_count && result == 1; n++) {
                if (height_of(&g, g.nodes[n], 1) == 0) result = 0;
            }
        }
    }
    free(g.edges);
    free(g.nodes);
    free(g.state);
    free(g.height);
    return result;
}
