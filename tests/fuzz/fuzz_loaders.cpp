// libFuzzer target over every tensor-file loader (scripts/fuzz.sh builds and runs it).
// Each input goes through the .npy, .npz and safetensors buffer loaders; a loader may
// accept it or fail with a status, but must never crash, read out of bounds or leak.
#include <cstdlib>

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
    if (ember_live_tensor_count() != 0) std::abort();  // every failure path released its tensors
    return 0;
}
