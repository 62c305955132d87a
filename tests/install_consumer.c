/* Built against an installed Ember with nothing but pkg-config. */
#include <stdio.h>

#include <ember/ember.h>

int main(void) {
    ember_ctx_t* ctx;
    if (ember_ctx_create(&ctx) != EMBER_OK) return 1;
    float data[4] = {1, 2, 3, 4};
    int64_t shape[1] = {4};
    ember_tensor_t *x, *s;
    double v = 0;
    if (ember_tensor_from_data(ctx, data, EMBER_FLOAT32, shape, 1, &x) != EMBER_OK) return 2;
    if (ember_sum(ctx, x, NULL, 0, 0, &s) != EMBER_OK || ember_tensor_item_f64(s, &v) != EMBER_OK) return 3;
    printf("sum = %g\n", v);
    ember_tensor_release(s);
    ember_tensor_release(x);
    ember_ctx_release(ctx);
    return 0;
}
