// libFuzzer target over every tensor-file loader (scripts/fuzz.sh builds and runs it).
// Each input goes through the .npy, .npz and safetensors buffer loaders; a loader may
// accept it or fail with a status, but must never crash, read out of bounds or leak. The
// input also goes through ember_save_npz_compressed and must load back unchanged.
#include <cstdlib>
#include <cstring>

#include "ember/ember.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static ember_ctx_t* ctx = [] {
        ember_ctx_t* c = nullptr;
        if (ember_ctx_create_on("reference", 0, &c) != EMBER_OK) std::abort();
        return c;
    }();
    ember_tensor_t* t = nullptr;
    if (ember_load_npy_buffer(ctx, data, size, &t) == EMBER_OK) ember_tensor_release(t);
    ember_tensor_dict_t* d = nullptr;
    if (ember_load_npz_buffer(ctx, data, size, &d) == EMBER_OK) ember_tensor_dict_release(d);
    d = nullptr;
    if (ember_load_safetensors_buffer(ctx, data, size, &d) == EMBER_OK) {
        // Whatever loads must save again.
        void* out = nullptr;
        size_t n = 0;
        if (ember_save_safetensors_buffer(ctx, d, &out, &n) != EMBER_OK) std::abort();
        ember_io_free(out);
        ember_tensor_dict_release(d);
    }
    // The DEFLATE encoder on arbitrary bytes: what it writes must load back exactly. (About
    // one input in 32, chosen by its size and last byte, not its first: file headers make
    // first bytes far from uniform. Under the sanitizers the encoder costs ~1 ms for a few
    // KiB, far more than all the loaders.)
    if (size && ((size + data[size - 1]) & 31) == 0) {
        int64_t n = (int64_t)size;
        ember_tensor_t* bytes = nullptr;
        if (ember_tensor_from_data(ctx, data, EMBER_UINT8, &n, 1, &bytes) != EMBER_OK) std::abort();
        ember_tensor_dict_t* one = nullptr;
        if (ember_tensor_dict_create(&one) != EMBER_OK || ember_tensor_dict_set(one, "x", bytes) != EMBER_OK) std::abort();
        void* packed = nullptr;
        size_t packed_n = 0;
        if (ember_save_npz_compressed_buffer(ctx, one, &packed, &packed_n) != EMBER_OK) std::abort();
        ember_tensor_dict_t* back = nullptr;
        ember_tensor_t* x = nullptr;
        if (ember_load_npz_buffer(ctx, packed, packed_n, &back) != EMBER_OK || ember_tensor_dict_find(back, "x", &x) != EMBER_OK)
            std::abort();
        void* got = nullptr;
        if (size && (ember_tensor_host_data(x, &got) != EMBER_OK || std::memcmp(got, data, size) != 0)) std::abort();
        ember_io_free(packed);
        ember_tensor_dict_release(back);
        ember_tensor_dict_release(one);
        ember_tensor_release(bytes);
    }
    if (ember_live_tensor_count() != 0) std::abort();  // every failure path released its tensors
    return 0;
}
