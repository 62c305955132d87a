// Core ABI: versions, status codes, errors, handles, dtypes and promotion, host memory,
// the registry (with deliberately broken modules), selection, switching and aliasing.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <set>

#include "test_util.hpp"

namespace {

TEST(Version, MacrosMatchRuntime) {
    const char* text = nullptr;
    EXPECT_EQ(ember_version(&text), EMBER_VERSION_NUMBER);
    EXPECT_STREQ(text, EMBER_VERSION_STRING);
}

TEST(Status, StringsAreStaticAndDistinct) {
    EXPECT_STREQ(ember_status_string(EMBER_OK), "success");
    EXPECT_STREQ(ember_status_string(EMBER_ERR_SHAPE), "shape mismatch");
    EXPECT_STRNE(ember_status_string(EMBER_ERR_BACKEND_MISMATCH), ember_status_string(EMBER_ERR_BACKEND_UNAVAILABLE));
    EXPECT_STREQ(ember_status_string((ember_status_t)12345), "unknown status");
}

TEST(Errors, MessageNamesFunctionAndCause) {
    T a = make<double>({1, 2, 3, 4, 5, 6}, {2, 3}, EMBER_FLOAT32);
    T b = make<double>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, {4, 5}, EMBER_FLOAT32);
    ember_tensor_t* sentinel = reinterpret_cast<ember_tensor_t*>(0x1);
    ember_tensor_t* out = sentinel;
    EM_FAILS(ember_matmul(test_ctx(), a, b, &out), EMBER_ERR_SHAPE, "ember_matmul");
    EXPECT_NE(std::string(ember_last_error()).find("(2, 3)"), std::string::npos) << ember_last_error();
    EXPECT_EQ(out, sentinel) << "out-param must be untouched on failure";
    EXPECT_EQ(ember_last_status(), EMBER_ERR_SHAPE);
    ember_clear_error();
    EXPECT_STREQ(ember_last_error(), "");
}

TEST(Errors, NullArgumentsNeverCrash) {
    ember_tensor_t* out = nullptr;
    EM_FAILS(ember_add(nullptr, nullptr, nullptr, &out), EMBER_ERR_INVALID_ARGUMENT, "ember_add");
    EM_FAILS(ember_add(test_ctx(), nullptr, nullptr, &out), EMBER_ERR_INVALID_ARGUMENT, "ember_add");
    T a = make<double>({1}, {1}, EMBER_FLOAT32);
    EM_FAILS(ember_exp(test_ctx(), a, nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_exp");
    EM_FAILS(ember_tensor_from_data(test_ctx(), nullptr, EMBER_FLOAT32, std::vector<int64_t>{3}.data(), 1, &out),
             EMBER_ERR_INVALID_ARGUMENT, "ember_tensor_from_data");
    EM_FAILS(ember_tensor_from_data(test_ctx(), nullptr, (ember_dtype_t)99, nullptr, 0, &out), EMBER_ERR_INVALID_ARGUMENT,
             "ember_tensor_from_data");
    EM_FAILS(ember_ctx_set_backend(nullptr, "reference", 0, 0), EMBER_ERR_INVALID_ARGUMENT, "ember_ctx_set_backend");
    ember_tensor_release(nullptr);
    ember_ctx_release(nullptr);
    EXPECT_EQ(out, nullptr);
}

TEST(Errors, ErrorsAreThreadLocal) {
    ember_tensor_t* out = nullptr;
    EM_FAILS(ember_exp(test_ctx(), nullptr, &out), EMBER_ERR_INVALID_ARGUMENT, "ember_exp");
    std::string other;
    std::thread([&] { other = ember_last_error(); }).join();
    EXPECT_EQ(other, "");
    EXPECT_NE(std::string(ember_last_error()), "");
}

TEST(Handles, RetainReleaseAndLiveCount) {
    int64_t before = ember_live_tensor_count();
    {
        T a = make<double>({1, 2}, {2}, EMBER_FLOAT64);
        EXPECT_EQ(ember_live_tensor_count(), before + 1);
        ember_tensor_retain(a);
        ember_tensor_release(a);
        EXPECT_EQ(values(a), (std::vector<double>{1, 2}));
        T v;
        EM_OK(ember_transpose(test_ctx(), a, v.out()));
        EXPECT_EQ(ember_live_tensor_count(), before + 2);
    }
    EXPECT_EQ(ember_live_tensor_count(), before);
}

// Each thread counts its own creations and releases and keeps a few freed objects
// (handle_cache.cpp): a tensor made on one thread and released on another, and the counts
// of threads that have exited, must still add up, and recycled objects must start clean.
TEST(Handles, LiveCountAcrossThreads) {
    const int64_t before = ember_live_tensor_count();
    std::vector<ember_tensor_t*> made(8, nullptr);
    std::thread maker([&] {
        for (size_t i = 0; i < made.size(); ++i) EM_OK(ember_full(test_ctx(), nullptr, 0, (double)i, EMBER_FLOAT32, &made[i]));
        for (int round = 0; round < 100; ++round) {  // cycle through the thread's kept objects
            T x = make<float>({1, 2, 3}, {3}, EMBER_FLOAT32), y;
            EM_OK(ember_add(test_ctx(), x, x, y.out()));
            EXPECT_EQ(values(y), (std::vector<double>{2, 4, 6}));
        }
    });
    maker.join();  // the maker has exited with eight tensors it created still alive
    EXPECT_EQ(ember_live_tensor_count(), before + 8);
    std::thread releaser([&] {
        for (size_t i = 0; i < 4; ++i) ember_tensor_release(made[i]);
        EXPECT_EQ(ember_live_tensor_count(), before + 4);
    });
    releaser.join();
    EXPECT_EQ(ember_live_tensor_count(), before + 4);
    for (size_t i = 4; i < made.size(); ++i) {
        const int64_t shape[1] = {1};
        T v;  // a view made on this thread, in an object freed here before
        EM_OK(ember_reshape(test_ctx(), made[i], shape, 1, v.out()));
        int ndim = -1;
        EM_OK(ember_tensor_ndim(v, &ndim));
        EXPECT_EQ(ndim, 1);
        EXPECT_EQ(values(v), (std::vector<double>{(double)i}));
        ember_tensor_release(made[i]);
    }
    EXPECT_EQ(ember_live_tensor_count(), before);
}

TEST(Dtypes, NamesSizesAndDlpack) {
    struct Row { ember_dtype_t d; const char* name; size_t size; uint8_t code; };
    const Row rows[] = {
        {EMBER_BOOL, "bool", 1, 6},       {EMBER_INT8, "int8", 1, 0},        {EMBER_INT64, "int64", 8, 0},
        {EMBER_UINT16, "uint16", 2, 1},   {EMBER_FLOAT16, "float16", 2, 2},  {EMBER_BFLOAT16, "bfloat16", 2, 4},
        {EMBER_FLOAT32, "float32", 4, 2}, {EMBER_COMPLEX64, "complex64", 8, 5}, {EMBER_COMPLEX128, "complex128", 16, 5},
    };
    for (const Row& r : rows) {
        EXPECT_STREQ(ember_dtype_name(r.d), r.name);
        EXPECT_EQ(ember_dtype_size(r.d), r.size);
        uint8_t code, bits;
        uint16_t lanes;
        EM_OK(ember_dtype_to_dlpack(r.d, &code, &bits, &lanes));
        EXPECT_EQ(code, r.code) << r.name;
        EXPECT_EQ(bits, r.size * 8) << r.name;
        EXPECT_EQ(lanes, 1);
        ember_dtype_t back;
        EM_OK(ember_dtype_from_dlpack(code, bits, lanes, &back));
        EXPECT_EQ(back, r.d);
        EM_OK(ember_dtype_from_name(r.name, &back));
        EXPECT_EQ(back, r.d);
    }
    ember_dtype_t d;
    EM_FAILS(ember_dtype_from_name("float8", &d), EMBER_ERR_INVALID_ARGUMENT, "ember_dtype_from_name");
    EM_FAILS(ember_dtype_from_dlpack(2, 32, 4, &d), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_dtype_from_dlpack");
    EXPECT_EQ(ember_dtype_name((ember_dtype_t)77), nullptr);
}

TEST(Dtypes, ArrayApiPromotion) {
    struct Row { ember_dtype_t a, b, want; };
    const Row rows[] = {
        {EMBER_INT8, EMBER_UINT8, EMBER_INT16},       {EMBER_INT16, EMBER_UINT32, EMBER_INT64},
        {EMBER_UINT8, EMBER_UINT32, EMBER_UINT32},    {EMBER_INT32, EMBER_INT8, EMBER_INT32},
        {EMBER_BOOL, EMBER_INT8, EMBER_INT8},         {EMBER_FLOAT16, EMBER_FLOAT32, EMBER_FLOAT32},
        {EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_FLOAT32}, {EMBER_FLOAT32, EMBER_COMPLEX64, EMBER_COMPLEX64},
        {EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128}, {EMBER_INT64, EMBER_FLOAT16, EMBER_FLOAT16},
    };
    for (const Row& r : rows) {
        ember_dtype_t got, rev;
        EM_OK(ember_result_type(r.a, r.b, &got));
        EM_OK(ember_result_type(r.b, r.a, &rev));
        EXPECT_EQ(got, r.want) << ember_dtype_name(r.a) << " + " << ember_dtype_name(r.b);
        EXPECT_EQ(rev, r.want);
    }
    ember_dtype_t got;
    EM_FAILS(ember_result_type(EMBER_INT64, EMBER_UINT64, &got), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_result_type");
    EXPECT_TRUE(ember_can_cast(EMBER_INT8, EMBER_INT32));
    EXPECT_FALSE(ember_can_cast(EMBER_INT32, EMBER_INT8));
    EXPECT_FALSE(ember_can_cast(EMBER_COMPLEX64, EMBER_FLOAT64));
    EXPECT_FALSE(ember_can_cast(EMBER_INT16, EMBER_FLOAT64));
    EXPECT_TRUE(ember_can_cast(EMBER_BOOL, EMBER_FLOAT16));
    EXPECT_TRUE(ember_can_cast(EMBER_FLOAT32, EMBER_COMPLEX64));
}

TEST(Dtypes, WeakScalarsTakeTheTensorsKind) {
    struct Row { ember_dtype_t tensor; int scalar_kind; ember_dtype_t want; };  // 0 int, 1 float, 2 complex
    const Row rows[] = {
        {EMBER_FLOAT16, 1, EMBER_FLOAT16}, {EMBER_INT8, 0, EMBER_INT8},     {EMBER_UINT8, 0, EMBER_UINT8},
        {EMBER_INT32, 1, EMBER_FLOAT32},   {EMBER_BOOL, 0, EMBER_INT64},   {EMBER_FLOAT64, 2, EMBER_COMPLEX128},
        {EMBER_BFLOAT16, 0, EMBER_BFLOAT16}, {EMBER_FLOAT32, 2, EMBER_COMPLEX64},
    };
    for (const Row& r : rows) {
        T x = make<double>({1, 0}, {2}, r.tensor), s, y;
        if (r.scalar_kind == 0) EM_OK(ember_scalar_i64(test_ctx(), 1, s.out()));
        else if (r.scalar_kind == 1) EM_OK(ember_scalar_f64(test_ctx(), 0.5, s.out()));
        else EM_OK(ember_scalar_c128(test_ctx(), 0.5, 1, s.out()));
        EM_OK(ember_add(test_ctx(), x, s, y.out()));
        EXPECT_EQ(dtype_of(y), r.want) << ember_dtype_name(r.tensor) << " kind " << r.scalar_kind;
        EM_OK(ember_add(test_ctx(), s, x, y.out()));
        EXPECT_EQ(dtype_of(y), r.want) << "reflected";
    }
}

// zeros writes small tensors as zero bytes (composites_shape.cpp: fill_fresh), larger ones
// through assign: every dtype, sizes on both sides of the 256-byte bound, into blocks the
// allocator hands back after a tensor of ones (so a skipped write shows), zeros_like of a
// reversed and of a transposed layout, and full of -0.0, which keeps its sign.
TEST(Creation, ZerosOfEveryDtypeAndLayout) {
    auto bytes = [](const ember_tensor_t* t) {
        int64_t n = 0;
        ember_tensor_size(t, &n);
        std::vector<unsigned char> b((size_t)n * ember_dtype_size(dtype_of(t)));
        EXPECT_EQ(ember_tensor_read(t, b.data(), b.size()), EMBER_OK) << ember_last_error();
        return b;
    };
    auto all_zero = [](const std::vector<unsigned char>& b) { return std::all_of(b.begin(), b.end(), [](unsigned char c) { return c == 0; }); };
    for (ember_dtype_t dt : kAll) {
        const std::string dn = ember_dtype_name(dt);
        for (int64_t n : {int64_t(0), int64_t(1), int64_t(10), int64_t(16), int64_t(33), int64_t(64), int64_t(1000)}) {
            const int64_t shape[1] = {n};
            { T ones; EM_OK(ember_ones(test_ctx(), shape, 1, dt, ones.out())); }
            T z;
            EM_OK(ember_zeros(test_ctx(), shape, 1, dt, z.out()));
            EXPECT_EQ(shape_of(z), std::vector<int64_t>{n});
            EXPECT_TRUE(all_zero(bytes(z))) << "zeros(" << n << ") " << dn;
        }
        const int64_t shape2[2] = {5, 7}, axis0[1] = {0};
        T ones2, flipped, transposed, z1, z2;
        EM_OK(ember_ones(test_ctx(), shape2, 2, dt, ones2.out()));
        EM_OK(ember_flip(test_ctx(), ones2, axis0, 1, flipped.out()));
        EM_OK(ember_matrix_transpose(test_ctx(), ones2, transposed.out()));
        EM_OK(ember_zeros_like(test_ctx(), flipped, EMBER_DTYPE_DEFAULT, z1.out()));
        EM_OK(ember_zeros_like(test_ctx(), transposed, EMBER_DTYPE_DEFAULT, z2.out()));
        EXPECT_EQ(shape_of(z2), (std::vector<int64_t>{7, 5}));
        EXPECT_TRUE(all_zero(bytes(z1))) << "zeros_like(flipped) " << dn;
        EXPECT_TRUE(all_zero(bytes(z2))) << "zeros_like(transposed) " << dn;
    }
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        const int64_t shape[1] = {3};
        T neg;
        EM_OK(ember_full(test_ctx(), shape, 1, -0.0, dt, neg.out()));
        for (double v : values(neg)) EXPECT_TRUE(v == 0 && std::signbit(v)) << ember_dtype_name(dt);
    }
}

TEST(HostMemory, FromDataCopiesWrapBorrowsAdoptFrees) {
    REQUIRE_HOST_MEMORY_TEST_BACKEND();
    float data[6] = {1, 2, 3, 4, 5, 6};
    int64_t shape[2] = {2, 3};
    T copied, wrapped;
    EM_OK(ember_tensor_from_data(test_ctx(), data, EMBER_FLOAT32, shape, 2, copied.out()));
    EM_OK(ember_tensor_wrap(test_ctx(), data, EMBER_FLOAT32, shape, nullptr, 2, wrapped.out()));
    data[0] = 100;
    EXPECT_EQ(values(copied)[0], 1);
    EXPECT_EQ(values(wrapped)[0], 100);
    void* host = nullptr;
    EM_OK(ember_tensor_host_data(wrapped, &host));
    EXPECT_EQ(host, data);

    // Wrap with explicit (column-major) strides.
    int64_t fstrides[2] = {1, 2};
    T fortran;
    EM_OK(ember_tensor_wrap(test_ctx(), data, EMBER_FLOAT32, shape, fstrides, 2, fortran.out()));
    EXPECT_EQ(values(fortran), (std::vector<double>{100, 3, 5, 2, 4, 6}));
    int contiguous = 1;
    EM_OK(ember_tensor_is_contiguous(fortran, &contiguous));
    EXPECT_EQ(contiguous, 0);

    static int deleted = 0;
    double* owned = static_cast<double*>(std::malloc(4 * sizeof(double)));
    for (int i = 0; i < 4; ++i) owned[i] = i;
    int64_t s4[1] = {4};
    {
        T adopted, view;
        EM_OK(ember_tensor_adopt(test_ctx(), owned, EMBER_FLOAT64, s4, nullptr, 1,
                                 [](void* p, void* ud) {
                                     ++*static_cast<int*>(ud);
                                     std::free(p);
                                 },
                                 &deleted, adopted.out()));
        EM_OK(ember_flip(test_ctx(), adopted, nullptr, 0, view.out()));
        adopted = T();
        EXPECT_EQ(deleted, 0) << "a live view keeps adopted memory alive";
        EXPECT_EQ(values(view), (std::vector<double>{3, 2, 1, 0}));
    }
    EXPECT_EQ(deleted, 1);
    ember_tensor_t* out = nullptr;
    EM_FAILS(ember_tensor_adopt(test_ctx(), owned, EMBER_FLOAT64, s4, nullptr, 1, nullptr, nullptr, &out), EMBER_ERR_INVALID_ARGUMENT,
             "ember_tensor_adopt");
}

TEST(HostMemory, ReadOnlyMemoryIsReadNeverWritten) {
    REQUIRE_HOST_MEMORY_TEST_BACKEND();
    // A page the process may only read: a write through Ember would be a SIGSEGV.
    const long page = sysconf(_SC_PAGESIZE);
    void* mem = mmap(nullptr, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(mem, MAP_FAILED);
    int64_t shape[1] = {4};
    T ro, view, y, src = make<double>({1, 2, 3, 4}, {4}, EMBER_FLOAT32);
    EM_OK(ember_tensor_wrap(test_ctx(), mem, EMBER_FLOAT32, shape, nullptr, 1, ro.out()));
    int flag = 1;
    EM_OK(ember_tensor_is_read_only(ro, &flag));
    EXPECT_EQ(flag, 0);
    EM_OK(ember_tensor_set_read_only(ro));
    EM_OK(ember_flip(test_ctx(), ro, nullptr, 0, view.out()));  // views share the mark
    EM_OK(ember_tensor_is_read_only(view, &flag));
    EXPECT_EQ(flag, 1);
    EM_OK(ember_exp(test_ctx(), view, y.out()));  // reading is fine
    EXPECT_EQ(values(y), (std::vector<double>{1, 1, 1, 1}));
    EM_FAILS(ember_assign(test_ctx(), view, src), EMBER_ERR_INVALID_ARGUMENT, "ember_assign");
    EXPECT_NE(std::string(ember_last_error()).find("read-only"), std::string::npos) << ember_last_error();
    const ember_tensor_t* xs[2] = {ro, src};
    EM_FAILS(ember_elementwise_into(test_ctx(), "add", xs, 2, ro), EMBER_ERR_INVALID_ARGUMENT, "ember_elementwise_into");
    float four[4] = {1, 2, 3, 4};
    EM_FAILS(ember_tensor_write(test_ctx(), ro, four, sizeof four), EMBER_ERR_INVALID_ARGUMENT, "ember_tensor_write");
    EM_FAILS(ember_tensor_set_read_only(nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_tensor_set_read_only");
    // A copy is an ordinary tensor again.
    T copy;
    EM_OK(ember_copy(test_ctx(), ro, copy.out()));
    EM_OK(ember_assign(test_ctx(), copy, src));
    EXPECT_EQ(values(copy), (std::vector<double>{1, 2, 3, 4}));
    ro = T();
    view = T();
    munmap(mem, (size_t)page);
}

TEST(HostMemory, ReadWriteItemAndQueries) {
    T x = make<double>({1, 2, 3, 4, 5, 6}, {2, 3}, EMBER_INT32), t;
    EM_OK(ember_transpose(test_ctx(), x, t.out()));
    int32_t buf[6];
    EM_OK(ember_tensor_read(t, buf, sizeof buf));
    EXPECT_EQ(std::vector<int32_t>(buf, buf + 6), (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));
    EM_FAILS(ember_tensor_read(t, buf, 5), EMBER_ERR_INVALID_ARGUMENT, "ember_tensor_read");
    const int64_t* strides;
    EM_OK(ember_tensor_strides(t, &strides));
    EXPECT_EQ(strides[0], 1);
    EXPECT_EQ(strides[1], 3);
    int32_t src[6] = {9, 8, 7, 6, 5, 4};
    EM_OK(ember_tensor_write(test_ctx(), t, src, sizeof src));  // writes through the view
    EXPECT_EQ(values(x), (std::vector<double>{9, 7, 5, 8, 6, 4}));
    double v;
    EM_FAILS(ember_tensor_item_f64(x, &v), EMBER_ERR_SHAPE, "ember_tensor_item_f64");
    T s = make<double>({-7}, {}, EMBER_INT16);
    int64_t iv;
    EM_OK(ember_tensor_item_i64(s, &iv));
    EXPECT_EQ(iv, -7);
    double re, im;
    T c;
    EM_OK(ember_scalar_c128(test_ctx(), 1.5, -2, c.out()));
    EM_OK(ember_tensor_item_c128(c, &re, &im));
    EXPECT_EQ(re, 1.5);
    EXPECT_EQ(im, -2);
    int weak = 0;
    EM_OK(ember_tensor_is_weak(c, &weak));
    EXPECT_EQ(weak, 1);
    const char* backend;
    int device = -1;
    EM_OK(ember_tensor_backend(x, &backend, &device));
    EXPECT_STREQ(backend, test_backend_name());
    EXPECT_EQ(device, 0);
}

// may_share_memory compares the byte ranges two views span; shares_memory looks for a byte
// that both views' elements hold: x[0::2] and x[1::2] span overlapping ranges but share
// nothing, as the real and imaginary parts of a complex tensor.
TEST(HostMemory, SharesMemoryExactlyOrByBounds) {
    T x = make<double>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {12}, EMBER_FLOAT32), evens, odds, tail, m, mt, copy, empty;
    const int64_t zero = 0, one = 1, two = 2, nine = 9, end = EMBER_SLICE_END;
    EM_OK(ember_slice(test_ctx(), x, &zero, &end, &two, 1, evens.out()));
    EM_OK(ember_slice(test_ctx(), x, &one, &end, &two, 1, odds.out()));
    EM_OK(ember_slice(test_ctx(), x, &nine, &end, nullptr, 1, tail.out()));
    EM_OK(ember_slice(test_ctx(), x, &zero, &zero, nullptr, 1, empty.out()));
    const int64_t shape[2] = {3, 4};
    EM_OK(ember_reshape(test_ctx(), x, shape, 2, m.out()));
    EM_OK(ember_transpose(test_ctx(), m, mt.out()));
    EM_OK(ember_copy(test_ctx(), x, copy.out()));
    auto shares = [](const ember_tensor_t* a, const ember_tensor_t* b, int exact) {
        int r = -1;
        EXPECT_EQ(ember_tensor_shares_memory(a, b, exact, &r), EMBER_OK);
        return r;
    };
    for (int exact : {0, 1}) {
        SCOPED_TRACE(exact);
        EXPECT_EQ(shares(x, x, exact), 1);
        EXPECT_EQ(shares(mt, x, exact), 1);
        EXPECT_EQ(shares(evens, tail, exact), 1);  // 10 is in both
        EXPECT_EQ(shares(x, copy, exact), 0);
        EXPECT_EQ(shares(empty, x, exact), 0);
    }
    EXPECT_EQ(shares(evens, odds, 0), 1);
    EXPECT_EQ(shares(evens, odds, 1), 0);
    // x[0::5] broadcast to (2, 3): strides (5, 0), six elements spanning six slots, with gaps
    // at 1..4, which x[1:5] holds.
    T fives, column, wide, middle;
    const int64_t five = 5, four_past = 5, column_shape[2] = {2, 1}, wide_shape[2] = {2, 3};
    EM_OK(ember_slice(test_ctx(), x, &zero, &nine, &five, 1, fives.out()));
    EM_OK(ember_reshape(test_ctx(), fives, column_shape, 2, column.out()));
    EM_OK(ember_broadcast_to(test_ctx(), column, wide_shape, 2, wide.out()));
    EM_OK(ember_slice(test_ctx(), x, &one, &four_past, nullptr, 1, middle.out()));
    EXPECT_EQ(shares(wide, middle, 0), 1);
    EXPECT_EQ(shares(wide, middle, 1), 0);
    EXPECT_EQ(shares(middle, wide, 1), 0);
    EXPECT_EQ(shares(wide, tail, 1), 0);
    T z = make<double>({1, 2, 3}, {3}, EMBER_COMPLEX64), re, im;
    EM_OK(ember_real(test_ctx(), z, re.out()));
    EM_OK(ember_imag(test_ctx(), z, im.out()));
    EXPECT_EQ(shares(re, z, 1), 1);
    EXPECT_EQ(shares(re, im, 1), 0);
    int r;
    EM_FAILS(ember_tensor_shares_memory(x, nullptr, 1, &r), EMBER_ERR_INVALID_ARGUMENT, "ember_tensor_shares_memory");
    EM_FAILS(ember_tensor_shares_memory(x, x, 1, nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_tensor_shares_memory");
}

// The item readers convert on the host for most dtypes and through the backend's astype for
// the rest: both must give what astype gives, for an element at an offset into its storage.
TEST(HostMemory, ItemOfEveryDtypeMatchesItsAstype) {
    for (int d = 0; d < EMBER_DTYPE_COUNT; ++d) {
        const ember_dtype_t dt = (ember_dtype_t)d;
        const bool is_unsigned = dt >= EMBER_UINT8 && dt <= EMBER_UINT64;
        std::vector<double> data = dt == EMBER_BOOL ? std::vector<double>{0, 1, 1}
                                   : is_unsigned    ? std::vector<double>{3, 200, 77}
                                   : dt >= EMBER_FLOAT16 ? std::vector<double>{1.5, -2.75, 1e-3}
                                                         : std::vector<double>{4, -100, -7};
        T x = make<double>(data, {3}, dt);
        for (int64_t k = 0; k < 3; ++k) {
            T e, as_f64, as_c128;
            EM_OK(ember_select(test_ctx(), x, 0, k, e.out()));
            EM_OK(ember_astype(test_ctx(), e, EMBER_FLOAT64, as_f64.out()));
            EM_OK(ember_astype(test_ctx(), e, EMBER_COMPLEX128, as_c128.out()));
            double v = 0, re = 0, im = 1;
            EM_OK(ember_tensor_item_f64(e, &v));
            EM_OK(ember_tensor_item_c128(e, &re, &im));
            const auto want = values_c(as_c128)[0];
            EXPECT_EQ(v, values(as_f64)[0]) << ember_dtype_name(dt) << " " << k;
            EXPECT_EQ(re, want.real()) << ember_dtype_name(dt) << " " << k;
            EXPECT_EQ(im, want.imag()) << ember_dtype_name(dt) << " " << k;
            if (dt < EMBER_FLOAT16) {
                T as_i64;
                EM_OK(ember_astype(test_ctx(), e, EMBER_INT64, as_i64.out()));
                int64_t i = 0;
                EM_OK(ember_tensor_item_i64(e, &i));
                EXPECT_EQ((double)i, values(as_i64)[0]) << ember_dtype_name(dt) << " " << k;
            }
        }
    }
    T big = make<double>({0, 18446744073709549568.0}, {2}, EMBER_UINT64), last;  // 2^64 - 2048
    EM_OK(ember_select(test_ctx(), big, 0, 1, last.out()));
    int64_t wrapped = 0;
    EM_OK(ember_tensor_item_i64(last, &wrapped));
    EXPECT_EQ(wrapped, -2048);  // modulo 2^64, as astype converts
}

// ---------------------------------------------------------------- registry
int backend_index(const char* want) {
    for (int i = 0; i < ember_backend_count(); ++i) {
        const char* name;
        ember_backend_get(i, &name, nullptr, nullptr, nullptr);
        if (std::string(name) == want) return i;
    }
    return -1;
}

TEST(Registry, BrokenModulesAreReportedNotFatal) {
    if (!std::getenv("EMBER_TEST_MODULE_DIR")) GTEST_SKIP() << "run through ctest (sets EMBER_BACKEND_PATH)";
    struct Want { const char* name; const char* reason; };
    const Want broken[] = {
        {"wrongversion", "backend API version 42"},
        {"noentry", "missing entry symbol 'ember_backend_module'"},
        {"garbage", "dlopen failed"},
    };
    for (const Want& w : broken) {
        int i = backend_index(w.name);
        ASSERT_GE(i, 0) << w.name << " not listed";
        const char *name, *path, *reason;
        int available = 1;
        EM_OK(ember_backend_get(i, &name, &available, &path, &reason));
        EXPECT_EQ(available, 0);
        EXPECT_NE(std::string(reason).find(w.reason), std::string::npos) << reason;
        EXPECT_NE(std::string(path).find("ember-backend-"), std::string::npos) << path;
    }
    std::string dir = std::getenv("EMBER_TEST_MODULE_DIR");
    EM_FAILS(ember_backend_load((dir + "/ember-backend-garbage.so").c_str()), EMBER_ERR_PLUGIN, "ember_backend_load");
    EXPECT_NE(std::string(ember_last_error()).find("ember-backend-garbage.so"), std::string::npos);
    EM_FAILS(ember_backend_load("/nonexistent/ember-backend-x.so"), EMBER_ERR_PLUGIN, "ember_backend_load");
    ember_ctx_t* ctx = nullptr;
    EM_FAILS(ember_ctx_create_on("wrongversion", 0, &ctx), EMBER_ERR_BACKEND_UNAVAILABLE, "ember_ctx_create_on");
    EM_FAILS(ember_ctx_create_on("nosuch", 0, &ctx), EMBER_ERR_BACKEND_UNAVAILABLE, "ember_ctx_create_on");
    EXPECT_EQ(ctx, nullptr);
}

// A module's init runs on the backend's first use (a context on it, a lookup by name, a
// listing), not when the registry loads the module: the opencl module's init loads the
// OpenCL driver (PoCL and its LLVM here, 28-35 ms and 75 MB resident), which a process that
// only computes on the host never needs. Checked in fresh processes, whose registries
// nothing has used yet.
bool in_registry_child() { return std::getenv("EMBER_REGISTRY_TEST_CHILD") != nullptr; }

TEST(Registry, ModulesInitialiseOnFirstUse) {
    if (!std::getenv("EMBER_TEST_MODULE_DIR")) GTEST_SKIP() << "run through ctest (sets EMBER_BACKEND_PATH)";
    NEED_CHILD_PROCESSES();
    // EMBER_TEST_CROSS_BACKENDS names the cross-backend suite's backends, which it otherwise
    // lists (test_backends.cpp) before any test runs.
    const std::vector<std::string> child{"EMBER_REGISTRY_TEST_CHILD=1", "EMBER_TEST_CROSS_BACKENDS=none"};
    auto with = [&](const char* setting) {
        std::vector<std::string> env = child;
        env.push_back(setting);
        return env;
    };
    EXPECT_EQ(wait_test_child(spawn_test_child("RegistryChild.FirstUse", with("EMBER_BACKEND=reference"))), 0);
    EXPECT_EQ(wait_test_child(spawn_test_child("RegistryChild.FailedInit", with("EMBER_FAKE_INIT_FAILS=1"))), 0);
    // The same module found twice (its directory, then the file under another spelling of
    // its path) is one backend, still uninitialised until its first use.
    const char* search_path = std::getenv("EMBER_BACKEND_PATH");
    std::vector<std::string> twice = with("EMBER_BACKEND=reference");
    twice.push_back(std::string("EMBER_BACKEND_PATH=") + (search_path ? search_path : "") + ":" + std::getenv("EMBER_TEST_MODULE_DIR") + "/./ember-backend-fakebackend.so");
    EXPECT_EQ(wait_test_child(spawn_test_child("RegistryChild.FirstUse", twice)), 0);
}

// The fake module's count of init calls (tests/modules/fake_backend.c); -1 if not loaded.
int fake_init_count() {
    const std::string path = std::string(std::getenv("EMBER_TEST_MODULE_DIR")) + "/ember-backend-fakebackend.so";
    void* dl = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (!dl) return -1;
    const int* count = static_cast<const int*>(dlsym(dl, "ember_fake_init_count"));
    const int value = count ? *count : -2;
    dlclose(dl);
    return value;
}

// The shared objects mapped into this process.
std::set<std::string> mapped_libraries() {
    std::ifstream maps("/proc/self/maps");
    std::set<std::string> libs;
    for (std::string line; std::getline(maps, line);) {
        const size_t slash = line.find('/');
        if (slash != std::string::npos && line.find(".so", slash) != std::string::npos) libs.insert(line.substr(slash));
    }
    return libs;
}

TEST(RegistryChild, FirstUse) {
    if (!in_registry_child()) GTEST_SKIP() << "runs in a child process started by Registry.ModulesInitialiseOnFirstUse";
    ember_ctx_t* ctx = nullptr;
    EM_OK(ember_ctx_create(&ctx));  // EMBER_BACKEND=reference: no other backend is asked anything
    {
        const int64_t three[1] = {3};
        T x, y;
        EM_OK(ember_ones(ctx, three, 1, EMBER_FLOAT32, x.out()));
        EM_OK(ember_add(ctx, x, x, y.out()));
    }
    ember_ctx_release(ctx);
    EXPECT_EQ(fake_init_count(), 0) << "the fake module was not loaded, or initialised before its first use";
    const std::set<std::string> before = mapped_libraries();
    for (const std::string& lib : before) EXPECT_EQ(lib.find("pocl"), std::string::npos) << lib << " is mapped before any OpenCL use";
    EM_OK(ember_ctx_create_on("fake", 1, &ctx));
    EXPECT_EQ(fake_init_count(), 1);
    ember_ctx_release(ctx);
    int opencl_available = 0, fakes_listed = 0;
    for (int i = 0; i < ember_backend_count(); ++i) {  // a listing initialises every backend
        const char* name;
        int available = 0;
        EM_OK(ember_backend_get(i, &name, &available, nullptr, nullptr));
        if (std::string(name) == "opencl") opencl_available = available;
        fakes_listed += std::string(name) == "fake";
    }
    EXPECT_EQ(fake_init_count(), 1) << "init ran twice";
    EXPECT_EQ(fakes_listed, 1);
    // The probe above can see a driver load: an available opencl backend has loaded its
    // platform's library by now.
    if (opencl_available) {
        EXPECT_GT(mapped_libraries().size(), before.size());
    }
}

// A module whose init fails is listed as unavailable with the reason, and its name cannot
// be used. The init runs inside the listing, which keeps the caller's last error; the
// warning the init logs reaches the callback once the registry's mutex is free, so a
// callback may call back into the registry (under the mutex it would hang: the alarm
// turns that into a failure).
std::vector<std::string> g_child_log;
int g_count_in_callback = -1;

TEST(RegistryChild, FailedInit) {
    if (!in_registry_child()) GTEST_SKIP() << "runs in a child process started by Registry.ModulesInitialiseOnFirstUse";
    alarm(30);
    ember_ctx_t* ctx = nullptr;
    // Builds the registry (the broken test modules' warnings go nowhere) and initialises nothing.
    EM_FAILS(ember_ctx_create_on("nosuch", 0, &ctx), EMBER_ERR_BACKEND_UNAVAILABLE, "ember_ctx_create_on");
    const std::string earlier = ember_last_error();
    EXPECT_EQ(fake_init_count(), 0);
    ember_set_log_callback(
        [](ember_log_level_t, const char* message, void*) {
            if (std::strncmp(message, "fake:", 5) != 0) return;
            g_child_log.push_back(message);
            g_count_in_callback = ember_backend_count();
        },
        nullptr, EMBER_LOG_WARN);
    const int count = ember_backend_count();  // runs every init: the fake one fails
    EXPECT_EQ(ember_last_error(), earlier);
    EXPECT_EQ(fake_init_count(), 1);
    ASSERT_EQ(g_child_log.size(), 1u);
    EXPECT_EQ(g_child_log[0], "fake: failing as told");
    EXPECT_EQ(g_count_in_callback, count);
    ember_set_log_callback(nullptr, nullptr, EMBER_LOG_WARN);
    const int i = backend_index("fake");
    ASSERT_GE(i, 0);
    const char *name, *reason;
    int available = 1;
    EM_OK(ember_backend_get(i, &name, &available, nullptr, &reason));
    EXPECT_EQ(available, 0);
    EXPECT_NE(std::string(reason).find("initialisation failed: fake: told to fail"), std::string::npos) << reason;
    EM_FAILS(ember_ctx_create_on("fake", 0, &ctx), EMBER_ERR_BACKEND_UNAVAILABLE, "ember_ctx_create_on");
    EXPECT_EQ(ctx, nullptr);
    EXPECT_EQ(fake_init_count(), 1);
    alarm(0);
}

TEST(Registry, OpTableAndBindings) {
    int n = ember_op_count();
    EXPECT_GT(n, 100);
    const char *name, *kind, *sig, *doc;
    EM_OK(ember_op_info(0, &name, &kind, &sig, &doc));
    EXPECT_STREQ(name, "negative");
    EM_FAILS(ember_op_info(n, &name, &kind, &sig, &doc), EMBER_ERR_INDEX, "ember_op_info");
    const char* binding;
    EM_OK(ember_op_binding("reference", "add", &binding));
    EXPECT_STREQ(binding, "native");
    EM_OK(ember_op_binding("reference", "softmax", &binding));
    EXPECT_STREQ(binding, "composite");
    EM_FAILS(ember_op_binding("reference", "frobnicate", &binding), EMBER_ERR_INVALID_ARGUMENT, "ember_op_binding");
}

// A composite with a kernel convention (COMPOSITE_KERNEL in the op table) runs the backend's
// kernel when there is one, with the prepared input, a fresh output and its attributes. The
// fake module's softmax writes axis + 0.5 * n_in, its var writes axes_mask + ddof / 10.
TEST(Aliasing, CustomCompositeKernelConvention) {
    if (backend_index("fake") < 0) GTEST_SKIP() << "fake backend module not on EMBER_BACKEND_PATH";
    const char* binding;
    for (const char* op : {"softmax", "var"}) {
        EM_OK(ember_op_binding("fake", op, &binding));
        EXPECT_STREQ(binding, "native") << op;
    }
    for (const char* op : {"log_softmax", "std", "pad"}) {
        EM_OK(ember_op_binding("fake", op, &binding));
        EXPECT_STREQ(binding, "composite") << op;
    }
    ember_ctx_t* ctx;
    EM_OK(ember_ctx_create_on("fake", 0, &ctx));
    T x = make<float>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {3, 4}, EMBER_FLOAT32), xt;
    EM_OK(ember_transpose(test_ctx(), x, xt.out()));  // a non-contiguous input (4, 3)
    ember_tensor_t* moved;
    EM_OK(ember_tensor_to(ctx, xt, &moved));
    T mx(moved), sm, v, lsm;
    auto host_values = [](const T& t) {  // fake tensors are read through the reference backend
        T h;
        ember_tensor_to(test_ctx(), t, h.out());
        return values(h);
    };
    EM_OK(ember_softmax(ctx, mx, -1, sm.out()));
    EXPECT_EQ(shape_of(sm), (std::vector<int64_t>{4, 3}));
    EXPECT_EQ(dtype_of(sm), EMBER_FLOAT32);
    std::vector<double> s = host_values(sm);
    ASSERT_EQ(s.size(), 12u);
    for (double e : s) EXPECT_EQ(e, 1.5) << "axis -1 normalised to 1, one input";
    int64_t ax = 0;
    EM_OK(ember_var(ctx, mx, &ax, 1, 0, 1.0, v.out()));
    EXPECT_EQ(shape_of(v), (std::vector<int64_t>{3}));
    std::vector<double> vs = host_values(v);
    ASSERT_EQ(vs.size(), 3u);
    for (double e : vs) EXPECT_NEAR(e, 1.1, 1e-6) << "axes_mask 1, ddof 1";
    // A kernel that declines (info nonzero; the fake does for ddof 2): the composite runs.
    // Columns of xt's (4, 3) are 1..4, 5..8, 9..12: sum of squared deviations 5, / (4 - 2).
    EM_OK(ember_var(ctx, mx, &ax, 1, 0, 2.0, v.out()));
    vs = host_values(v);
    ASSERT_EQ(vs.size(), 3u);
    for (double e : vs) EXPECT_NEAR(e, 2.5, 1e-6) << "declined: the composite's variance";
    // Without a kernel (log_softmax here) the composite runs: rows sum to one after exp.
    EM_OK(ember_log_softmax(ctx, mx, -1, lsm.out()));
    std::vector<double> l = host_values(lsm);
    ASSERT_EQ(l.size(), 12u);
    EXPECT_NEAR(std::exp(l[0]) + std::exp(l[1]) + std::exp(l[2]), 1.0, 1e-6);
    ember_ctx_release(ctx);
}

// A context on the fake module with its DEBUG log lines collected: its sum, prod, all and
// any kernels log the input dtype they are handed, then compute the reference's result.
struct FakeWithLog {
    ember_ctx_t* ctx = nullptr;
    std::vector<std::string> lines;
    FakeWithLog() {
        EXPECT_EQ(ember_ctx_create_on("fake", 0, &ctx), EMBER_OK);
        ember_set_log_callback([](ember_log_level_t, const char* m, void* ud) { static_cast<std::vector<std::string>*>(ud)->push_back(m); },
                               &lines, EMBER_LOG_DEBUG);
    }
    ~FakeWithLog() {
        ember_set_log_callback(nullptr, nullptr, EMBER_LOG_WARN);
        ember_ctx_release(ctx);
    }
    long logged(const std::string& line) const { return (long)std::count(lines.begin(), lines.end(), line); }
};
// A result's elements (dtype want) widened to int64.
template <class E>
std::vector<int64_t> values_of(const T& t, ember_dtype_t want) {
    ember_dtype_t dt;
    EXPECT_EQ(ember_tensor_dtype(t, &dt), EMBER_OK);
    EXPECT_EQ(dt, want);
    int64_t n = 0;
    EXPECT_EQ(ember_tensor_size(t, &n), EMBER_OK);
    std::vector<E> v((size_t)n);
    EXPECT_EQ(ember_tensor_read(t, v.data(), v.size() * sizeof(E)), EMBER_OK);
    return std::vector<int64_t>(v.begin(), v.end());
}

// EMBER_KERNEL_WIDENS_INPUT: the core hands a sum of narrow integers or bools to a kernel
// that claims the flag as it is, and still widens a product's input to int64 where the
// kernel claims it (the flag is for sum only).
TEST(Aliasing, KernelThatWidensGetsNarrowSumInputAsItIs) {
    if (backend_index("fake") < 0) GTEST_SKIP() << "fake backend module not on EMBER_BACKEND_PATH";
    FakeWithLog fake;
    ember_ctx_t* ctx = fake.ctx;
    const int16_t data[6] = {-300, 200, 32767, 5, -1, 7};
    const uint8_t bytes[3] = {250, 250, 250};
    const bool flags[3] = {true, false, true};
    const int64_t shape[2] = {2, 3}, three = 3, ax0 = 0, ax1 = 1;
    T x, u, b, total, columns, products, byte_total, count;
    EM_OK(ember_tensor_from_data(ctx, data, EMBER_INT16, shape, 2, x.out()));
    EM_OK(ember_tensor_from_data(ctx, bytes, EMBER_UINT8, &three, 1, u.out()));
    EM_OK(ember_tensor_from_data(ctx, flags, EMBER_BOOL, &three, 1, b.out()));
    EM_OK(ember_sum(ctx, x, nullptr, 0, 0, total.out()));
    EM_OK(ember_sum(ctx, x, &ax0, 1, 0, columns.out()));
    EM_OK(ember_prod(ctx, x, &ax1, 1, 0, products.out()));
    EM_OK(ember_sum(ctx, u, nullptr, 0, 0, byte_total.out()));
    EM_OK(ember_sum(ctx, b, nullptr, 0, 0, count.out()));
    EXPECT_EQ(values_of<int64_t>(total, EMBER_INT64), (std::vector<int64_t>{32678}));
    EXPECT_EQ(values_of<int64_t>(columns, EMBER_INT64), (std::vector<int64_t>{-295, 199, 32774}));
    EXPECT_EQ(values_of<int64_t>(products, EMBER_INT64), (std::vector<int64_t>{-1966020000, -35}));
    EXPECT_EQ(values_of<int64_t>(byte_total, EMBER_UINT64), (std::vector<int64_t>{750}));
    EXPECT_EQ(values_of<int64_t>(count, EMBER_INT64), (std::vector<int64_t>{2}));
    EXPECT_EQ(fake.logged("fake sum: input dtype 2"), 2) << "int16 sums arrive as int16";
    EXPECT_EQ(fake.logged("fake sum: input dtype 5"), 1) << "a uint8 sum arrives as uint8";
    EXPECT_EQ(fake.logged("fake sum: input dtype 0"), 1) << "a bool sum arrives as bool";
    EXPECT_EQ(fake.logged("fake prod: input dtype 4"), 1) << "a product's input is widened to int64 whatever the kernel claims";
}

// EMBER_KERNEL_TESTS_INPUT: the fake module's `all` claims it and is handed float32 x as it
// is; its `any` does not and is handed the core's bool copy. Both answer as the reference
// does (NaN true, -0.0 false), whichever way x arrives.
TEST(Aliasing, KernelThatTestsGetsAllInputAsItIs) {
    if (backend_index("fake") < 0) GTEST_SKIP() << "fake backend module not on EMBER_BACKEND_PATH";
    FakeWithLog fake;
    ember_ctx_t* ctx = fake.ctx;
    const float data[6] = {std::nanf(""), 2.0f, -0.0f, 0.0f, 1.0f, 0.0f};
    const int64_t shape[2] = {2, 3}, ax1 = 1;
    T x, all_rows, any_rows, all_of;
    EM_OK(ember_tensor_from_data(ctx, data, EMBER_FLOAT32, shape, 2, x.out()));
    EM_OK(ember_all(ctx, x, &ax1, 1, 0, all_rows.out()));
    EM_OK(ember_any(ctx, x, &ax1, 1, 0, any_rows.out()));
    EM_OK(ember_all(ctx, x, nullptr, 0, 0, all_of.out()));
    EXPECT_EQ(values_of<uint8_t>(all_rows, EMBER_BOOL), (std::vector<int64_t>{0, 0}));
    EXPECT_EQ(values_of<uint8_t>(any_rows, EMBER_BOOL), (std::vector<int64_t>{1, 1}));
    EXPECT_EQ(values_of<uint8_t>(all_of, EMBER_BOOL), (std::vector<int64_t>{0}));
    EXPECT_EQ(fake.logged("fake all: input dtype " + std::to_string((int)EMBER_FLOAT32)), 2) << "all claims the flag: float32 arrives as float32";
    EXPECT_EQ(fake.logged("fake any: input dtype " + std::to_string((int)EMBER_BOOL)), 1) << "any does not: it is handed bool";
}

// The fake module: one (deliberately identity) native kernel for `negative`, every other
// primitive bound to the reference kernel over its host memory.
TEST(Aliasing, NativeCompositeAndReferenceFallback) {
    if (backend_index("fake") < 0) GTEST_SKIP() << "fake backend module not on EMBER_BACKEND_PATH";
    const char* binding;
    EM_OK(ember_op_binding("fake", "negative", &binding));
    EXPECT_STREQ(binding, "native");
    EM_OK(ember_op_binding("fake", "exp", &binding));
    EXPECT_STREQ(binding, "reference");
    EM_OK(ember_op_binding("fake", "mean", &binding));
    EXPECT_STREQ(binding, "composite");

    ember_ctx_t* ctx;
    EM_OK(ember_ctx_create_on("fake", 1, &ctx));
    double data[3] = {1, 2, 3};
    int64_t shape[1] = {3};
    ember_tensor_t *x, *neg, *e, *m;
    EM_OK(ember_tensor_from_data(ctx, data, EMBER_FLOAT64, shape, 1, &x));
    EM_OK(ember_negative(ctx, x, &neg));
    EM_OK(ember_exp(ctx, x, &e));
    EM_OK(ember_mean(ctx, x, nullptr, 0, 0, &m));
    double out[3];
    EM_OK(ember_tensor_read(neg, out, sizeof out));
    EXPECT_EQ(out[0], 1) << "the backend's own kernel must win over the reference";
    EM_OK(ember_tensor_read(e, out, sizeof out));
    EXPECT_DOUBLE_EQ(out[2], std::exp(3.0));
    double mv;
    EM_OK(ember_tensor_item_f64(m, &mv));
    EXPECT_DOUBLE_EQ(mv, 2.0);
    const char* b;
    int dev;
    EM_OK(ember_tensor_backend(e, &b, &dev));
    EXPECT_STREQ(b, "fake");
    EXPECT_EQ(dev, 1);

    // Mixing backends is an error; moving is explicit (and free between host backends).
    ember_tensor_t* r = nullptr;
    T y = make<double>({1, 1, 1}, {3}, EMBER_FLOAT64);
    EM_FAILS(ember_add(ctx, x, y, &r), EMBER_ERR_BACKEND_MISMATCH, "ember_add");
    EXPECT_NE(std::string(ember_last_error()).find("ember_tensor_to"), std::string::npos);
    ember_tensor_t* moved;
    EM_OK(ember_tensor_to(ctx, y, &moved));
    EM_OK(ember_add(ctx, x, moved, &r));
    if (test_backend_uses_host_memory()) {
        void *p1, *p2;
        EXPECT_EQ(ember_tensor_host_data(y, &p1), EMBER_OK);
        EXPECT_EQ(ember_tensor_host_data(moved, &p2), EMBER_OK);
        EXPECT_EQ(p1, p2) << "host-to-host move shares storage";
    }
    for (ember_tensor_t* t : {x, neg, e, m, moved, r}) ember_tensor_release(t);
    ember_ctx_release(ctx);
}

TEST(Switching, SetPushPopAndSource) {
    ember_ctx_t* ctx;
    EM_OK(ember_ctx_create_on("reference", 0, &ctx));
    ember_selection_source_t src;
    EM_OK(ember_ctx_selection_source(ctx, &src));
    EXPECT_EQ(src, EMBER_SOURCE_CALL);
    const char* name;
    int dev;
    if (backend_index("fake") >= 0) {
        EM_OK(ember_ctx_push_backend(ctx, "fake", 1));
        EM_OK(ember_ctx_get_backend(ctx, &name, &dev));
        EXPECT_STREQ(name, "fake");
        EXPECT_EQ(dev, 1);
        EM_FAILS(ember_ctx_push_backend(ctx, "fake", 7), EMBER_ERR_BACKEND_UNAVAILABLE, "ember_ctx_push_backend");
        EM_OK(ember_ctx_pop_backend(ctx));
    }
    EM_OK(ember_ctx_get_backend(ctx, &name, &dev));
    EXPECT_STREQ(name, "reference");
    EM_FAILS(ember_ctx_pop_backend(ctx), EMBER_ERR_INVALID_ARGUMENT, "ember_ctx_pop_backend");
    EM_FAILS(ember_ctx_set_backend(ctx, "nosuch", 0, 0), EMBER_ERR_BACKEND_UNAVAILABLE, "ember_ctx_set_backend");
    EM_OK(ember_ctx_get_backend(ctx, &name, &dev));
    EXPECT_STREQ(name, "reference") << "a failed switch changes nothing";
    ember_ctx_release(ctx);
}

struct EnvGuard {
    std::string key;
    std::string old;
    bool had;
    EnvGuard(const char* k, const char* v) : key(k) {
        const char* o = std::getenv(k);
        had = o != nullptr;
        if (had) old = o;
        if (v) setenv(k, v, 1);
        else unsetenv(k);
    }
    ~EnvGuard() {
        if (had) setenv(key.c_str(), old.c_str(), 1);
        else unsetenv(key.c_str());
    }
};

TEST(Selection, EnvThenConfigThenAuto) {
    // One file per process: CTest runs this suite in several processes at once.
    std::string cfg = ::testing::TempDir() + "ember-test-config-" + std::to_string(getpid()) + ".json";
    std::remove(cfg.c_str());
    EnvGuard c("EMBER_CONFIG", cfg.c_str());
    ember_ctx_t* ctx;
    const char* name;
    ember_selection_source_t src;
    {
        EnvGuard e("EMBER_BACKEND", nullptr);
        EM_OK(ember_ctx_create(&ctx));
        EM_OK(ember_ctx_selection_source(ctx, &src));
        EXPECT_EQ(src, EMBER_SOURCE_AUTO);
        // Persisting writes the config file, which later contexts read.
        EM_OK(ember_ctx_set_backend(ctx, "reference", 0, EMBER_PERSIST));
        ember_ctx_release(ctx);
        std::ifstream f(cfg);
        std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        EXPECT_NE(text.find("\"backend\""), std::string::npos) << text;
        EM_OK(ember_ctx_create(&ctx));
        EM_OK(ember_ctx_selection_source(ctx, &src));
        EXPECT_EQ(src, EMBER_SOURCE_CONFIG);
        ember_ctx_release(ctx);
    }
    {
        EnvGuard e("EMBER_BACKEND", "reference");
        EM_OK(ember_ctx_create(&ctx));
        EM_OK(ember_ctx_selection_source(ctx, &src));
        EXPECT_EQ(src, EMBER_SOURCE_ENV);
        ember_ctx_release(ctx);
    }
    {
        // Unknown names and malformed files fall back (logged), never fail or crash.
        std::vector<std::string> logged;
        ember_set_log_callback([](ember_log_level_t, const char* m, void* ud) { static_cast<std::vector<std::string>*>(ud)->push_back(m); },
                               &logged, EMBER_LOG_WARN);
        EnvGuard e("EMBER_BACKEND", "no-such-backend");
        std::ofstream(cfg) << "{ this is not json";
        EM_OK(ember_ctx_create(&ctx));
        EM_OK(ember_ctx_get_backend(ctx, &name, nullptr));
        EM_OK(ember_ctx_selection_source(ctx, &src));
        EXPECT_EQ(src, EMBER_SOURCE_AUTO);
        ember_ctx_release(ctx);
        ember_set_log_callback(nullptr, nullptr, EMBER_LOG_WARN);
        ASSERT_EQ(logged.size(), 2u);
        EXPECT_NE(logged[0].find("no-such-backend"), std::string::npos) << logged[0];
        EXPECT_NE(logged[1].find("not a JSON object"), std::string::npos) << logged[1];
    }
    std::remove(cfg.c_str());
}

TEST(Devices, InfoMemoryAndSync) {
    int n = 0;
    EM_OK(ember_ctx_device_count(test_ctx(), &n));
    EXPECT_GE(n, 1);
    ember_device_info_t info;
    EM_OK(ember_ctx_device_info(test_ctx(), 0, &info));
    EXPECT_GT(std::strlen(info.name), 0u);
    EM_FAILS(ember_ctx_device_info(test_ctx(), 99, &info), EMBER_ERR_BACKEND_UNAVAILABLE, "ember_ctx_device_info");
    ember_memory_info_t mem;
    EM_OK(ember_ctx_memory_info(test_ctx(), &mem));
    uint64_t before = mem.allocated_bytes;
    {
        T big;
        int64_t shape[1] = {1 << 16};
        EM_OK(ember_zeros(test_ctx(), shape, 1, EMBER_FLOAT64, big.out()));
        EM_OK(ember_ctx_memory_info(test_ctx(), &mem));
        EXPECT_GE(mem.allocated_bytes, before + (8u << 16));
    }
    EM_OK(ember_synchronize(test_ctx()));
    ember_ctx_t* d1;
    ember_ctx_t* d2;
    EM_OK(ember_default_ctx(&d1));
    EM_OK(ember_default_ctx(&d2));
    EXPECT_EQ(d1, d2);
}

}  // namespace

namespace {
TEST(HostMemory, BoolBytesAreNormalised) {
    uint8_t raw[3] = {0, 16, 255};
    int64_t shape[1] = {3};
    T b;
    EM_OK(ember_tensor_from_data(test_ctx(), raw, EMBER_BOOL, shape, 1, b.out()));
    EXPECT_EQ(values(b), (std::vector<double>{0, 1, 1}));
    T n;
    EM_OK(ember_logical_not(test_ctx(), b, n.out()));
    EXPECT_EQ(values(n), (std::vector<double>{1, 0, 0}));
}
}  // namespace
