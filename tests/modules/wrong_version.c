/* A module built for a future backend API: the loader must refuse it. */
#include "ember/ember_backend.h"

static const ember_backend_iface_t iface = {EMBER_BACKEND_API_VERSION + 41, "wrongversion"};

__attribute__((visibility("default"))) const ember_backend_iface_t* ember_backend_module(uint32_t v) {
    (void)v;
    return &iface;
}
