// Tensor files: .npy, .npz and safetensors round trips, hand-built files from the format
// specifications, hostile inputs and the fuzzer's regression corpus.
#include <dirent.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <random>
#include <iterator>

#include "test_util.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

struct Dict {
    ember_tensor_dict_t* d = nullptr;
    Dict() = default;
    Dict(const Dict&) = delete;
    ~Dict() { ember_tensor_dict_release(d); }
    ember_tensor_dict_t** out() {
        ember_tensor_dict_release(d);
        d = nullptr;
        return &d;
    }
};

struct Buf {
    void* p = nullptr;
    size_t n = 0;
    ~Buf() { ember_io_free(p); }
    Bytes bytes() const { return Bytes((uint8_t*)p, (uint8_t*)p + n); }
};

Bytes str_bytes(const std::string& s) { return Bytes(s.begin(), s.end()); }
void put_le(Bytes& b, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b.push_back((uint8_t)(v >> (8 * i)));
}
template <class V>
void put_raw(Bytes& b, const std::vector<V>& v) {
    const uint8_t* p = (const uint8_t*)v.data();
    b.insert(b.end(), p, p + v.size() * sizeof(V));
}

// An .npy file built by hand from the format description (version 1.0).
Bytes npy(const std::string& dict, const Bytes& data, int major = 1) {
    Bytes b = str_bytes(std::string("\x93NUMPY", 6));
    b.push_back((uint8_t)major);
    b.push_back(0);
    std::string h = dict + "\n";
    put_le(b, h.size(), major == 1 ? 2 : 4);
    b.insert(b.end(), h.begin(), h.end());
    b.insert(b.end(), data.begin(), data.end());
    return b;
}

// A safetensors file built by hand: length, JSON, data.
Bytes safet(const std::string& json, const Bytes& data) {
    Bytes b;
    put_le(b, json.size(), 8);
    b.insert(b.end(), json.begin(), json.end());
    b.insert(b.end(), data.begin(), data.end());
    return b;
}

// Independent CRC-32 (bitwise; validated against the standard check value below).
uint32_t crc32_ref(const Bytes& b, size_t from, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = from; i < from + n; ++i) {
        c ^= b[i];
        for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
    }
    return ~c;
}
uint32_t rd32(const Bytes& b, size_t at) { return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | ((uint32_t)b[at + 3] << 24); }
uint16_t rd16(const Bytes& b, size_t at) { return (uint16_t)(b[at] | (b[at + 1] << 8)); }

std::vector<uint8_t> raw(const ember_tensor_t* t) {
    int64_t n = 0;
    ember_tensor_size(t, &n);
    std::vector<uint8_t> v((size_t)n * ember_dtype_size(dtype_of(t)));
    if (!v.empty()) ember_tensor_read(t, v.data(), v.size());
    return v;
}

T from_raw(const void* data, ember_dtype_t dt, std::vector<int64_t> shape) {
    T t;
    EXPECT_EQ(ember_tensor_from_data(test_ctx(), data, dt, shape.data(), (int)shape.size(), t.out()), EMBER_OK) << ember_last_error();
    return t;
}

// A tensor of every dtype with distinctive bit patterns (NaN, inf, -0 for floats).
T sample(ember_dtype_t dt, std::vector<int64_t> shape) {
    std::vector<double> v;
    int64_t n = 1;
    for (auto s : shape) n *= s;
    const double specials[] = {1.5, -2.25, 0.0, -0.0, NAN, INFINITY, -INFINITY, 3.0, 100.0, -7.0};
    for (int64_t i = 0; i < n; ++i) v.push_back(specials[i % 10] + (i >= 10 ? (double)i : 0.0));
    T f64 = from_raw(v.data(), EMBER_FLOAT64, shape);
    T out;
    EXPECT_EQ(ember_astype(test_ctx(), f64, dt, out.out()), EMBER_OK);
    if (dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128) {  // give the imaginary parts values too
        T im, sum, scaled;
        EXPECT_EQ(ember_scalar_c128(test_ctx(), 0.0, 0.5, im.out()), EMBER_OK);
        EXPECT_EQ(ember_add(test_ctx(), out, im, sum.out()), EMBER_OK);
        return sum;
    }
    return out;
}

const ember_dtype_t all_dtypes[] = {EMBER_BOOL,   EMBER_INT8,    EMBER_INT16,    EMBER_INT32,   EMBER_INT64,
                                    EMBER_UINT8,  EMBER_UINT16,  EMBER_UINT32,   EMBER_UINT64,  EMBER_FLOAT16,
                                    EMBER_BFLOAT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128};

std::string tmp_path(const std::string& name) { return "/tmp/ember_test_io_" + std::to_string(getpid()) + "_" + name; }

// ---------------------------------------------------------------- .npy

TEST(IoNpy, ExactBytesOfAWrittenFile) {
    std::vector<float> v = {1.0f, 2.0f, 3.0f};
    T t = from_raw(v.data(), EMBER_FLOAT32, {3});
    Buf b;
    EM_OK(ember_save_npy_buffer(test_ctx(), t, &b.p, &b.n));
    std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
    // 10-byte preamble + dict + spaces + '\n' == 64 * k (NumPy's alignment).
    size_t header = 10 + dict.size() + 1;
    header = (header + 63) / 64 * 64;
    ASSERT_EQ(b.n, header + 12);
    Bytes bytes = b.bytes();
    EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 6), std::string("\x93NUMPY", 6));
    EXPECT_EQ(bytes[6], 1);
    EXPECT_EQ(bytes[7], 0);
    EXPECT_EQ(rd16(bytes, 8), header - 10);
    EXPECT_EQ(std::string(bytes.begin() + 10, bytes.begin() + 10 + dict.size()), dict);
    EXPECT_EQ(bytes[header - 1], '\n');
    for (size_t i = 10 + dict.size(); i + 1 < header; ++i) EXPECT_EQ(bytes[i], ' ');
    EXPECT_EQ(rd32(bytes, header), 0x3f800000u);  // 1.0f
    EXPECT_EQ(rd32(bytes, header + 8), 0x40400000u);  // 3.0f
}

TEST(IoNpy, ShapeSpellings) {
    struct Case {
        std::vector<int64_t> shape;
        const char* text;
    } cases[] = {{{}, "()"}, {{0}, "(0,)"}, {{2, 3}, "(2, 3)"}, {{1, 0, 4}, "(1, 0, 4)"}};
    for (auto& c : cases) {
        T t = sample(EMBER_INT16, c.shape);
        Buf b;
        EM_OK(ember_save_npy_buffer(test_ctx(), t, &b.p, &b.n));
        std::string s((char*)b.p, b.n);
        EXPECT_NE(s.find(std::string("'shape': ") + c.text + ", }"), std::string::npos) << s;
        EXPECT_NE(s.find("'descr': '<i2'"), std::string::npos);
    }
}

TEST(IoNpy, RoundTripEveryNumpyDtypeAndShape) {
    for (ember_dtype_t dt : all_dtypes) {
        for (auto shape : std::vector<std::vector<int64_t>>{{}, {0}, {1}, {7}, {2, 3, 4}, {3, 0, 2}}) {
            T t = sample(dt, shape);
            Buf b;
            if (dt == EMBER_BFLOAT16) {
                EM_FAILS(ember_save_npy_buffer(test_ctx(), t, &b.p, &b.n), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_save_npy_buffer");
                continue;
            }
            EM_OK(ember_save_npy_buffer(test_ctx(), t, &b.p, &b.n));
            T back;
            EM_OK(ember_load_npy_buffer(test_ctx(), b.p, b.n, back.out()));
            EXPECT_EQ(dtype_of(back), dt);
            EXPECT_EQ(shape_of(back), shape);
            EXPECT_EQ(raw(back), raw(t)) << ember_dtype_name(dt);  // bit-exact, NaN and -0 included
        }
    }
}

TEST(IoNpy, ReadsHandBuiltFiles) {
    // Big-endian int32 (NumPy '>i4').
    Bytes be = {0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 0x7f, 0xff, 0xff, 0xff};
    Bytes f = npy("{'descr': '>i4', 'fortran_order': False, 'shape': (3,), }", be);
    T t;
    EM_OK(ember_load_npy_buffer(test_ctx(), f.data(), f.size(), t.out()));
    EXPECT_EQ(dtype_of(t), EMBER_INT32);
    EXPECT_TRUE(all_close(values(t), {1, -2, 2147483647}, 0));
    // Fortran order: memory holds columns. a = [[1, 2, 3], [4, 5, 6]] is stored 1 4 2 5 3 6.
    Bytes col;
    put_raw(col, std::vector<double>{1, 4, 2, 5, 3, 6});
    f = npy("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", col);
    EM_OK(ember_load_npy_buffer(test_ctx(), f.data(), f.size(), t.out()));
    EXPECT_EQ(shape_of(t), (std::vector<int64_t>{2, 3}));
    EXPECT_TRUE(all_close(values(t), {1, 2, 3, 4, 5, 6}, 0));
    // Version 2.0 (4-byte header length), double quotes, no trailing comma, bool.
    f = npy("{\"descr\": \"|b1\", \"fortran_order\": False, \"shape\": (2, 2)}", {1, 0, 0, 1}, 2);
    EM_OK(ember_load_npy_buffer(test_ctx(), f.data(), f.size(), t.out()));
    EXPECT_EQ(dtype_of(t), EMBER_BOOL);
    EXPECT_TRUE(all_close(values(t), {1, 0, 0, 1}, 0));
    // Bool bytes other than 0/1 (found by the fuzzer): non-zero reads as true, as in NumPy,
    // and the tensor holds canonical 0/1 bytes.
    f = npy("{'descr': '|b1', 'fortran_order': True, 'shape': (2, 2), }", {16, 0, 255, 1});
    EM_OK(ember_load_npy_buffer(test_ctx(), f.data(), f.size(), t.out()));
    EXPECT_EQ(raw(t), (std::vector<uint8_t>{1, 1, 0, 1}));
    Bytes sb = safet("{\"b\":{\"dtype\":\"BOOL\",\"shape\":[3],\"data_offsets\":[0,3]}}", {7, 0, 128});
    Dict bd;
    EM_OK(ember_load_safetensors_buffer(test_ctx(), sb.data(), sb.size(), bd.out()));
    ember_tensor_t* bt = nullptr;
    EM_OK(ember_tensor_dict_find(bd.d, "b", &bt));
    EXPECT_EQ(raw(bt), (std::vector<uint8_t>{1, 0, 1}));
    // Big-endian complex64: each half swapped separately.
    Bytes cbe = {0x3f, 0x80, 0, 0, 0xc0, 0, 0, 0};  // 1 - 2j
    f = npy("{'descr': '>c8', 'fortran_order': False, 'shape': (), }", cbe);
    EM_OK(ember_load_npy_buffer(test_ctx(), f.data(), f.size(), t.out()));
    auto c = values_c(t);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0], std::complex<double>(1, -2));
}

TEST(IoNpy, RejectsMalformedFiles) {
    Bytes four;
    put_raw(four, std::vector<float>{1, 2, 3, 4});
    struct Case {
        const char* why;
        Bytes file;
    } cases[] = {
        {"empty", {}},
        {"bad magic", str_bytes("\x93NUMPZ\x01\x00\x10\x00{}")},
        {"version 9", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", four, 9)},
        {"header longer than file", Bytes{0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0xff, 0xff, '{'}},
        {"truncated data", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }", four)},
        {"trailing data", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", four)},
        {"huge shape", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000, 1000000000000), }", four)},
        {"overflowing dim", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,), }", four)},
        {"negative dim", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-4,), }", four)},
        {"unknown dtype", npy("{'descr': '<V4', 'fortran_order': False, 'shape': (4,), }", four)},
        {"object dtype", npy("{'descr': '|O', 'fortran_order': False, 'shape': (4,), }", four)},
        {"structured dtype", npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (4,), }", four)},
        {"no byte order", npy("{'descr': 'f4', 'fortran_order': False, 'shape': (4,), }", four)},
        {"missing shape", npy("{'descr': '<f4', 'fortran_order': False, }", four)},
        {"unexpected key", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'x': 1}", four)},
        {"bad fortran_order", npy("{'descr': '<f4', 'fortran_order': 0, 'shape': (4,), }", four)},
        {"17 dims", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,4), }", four)},
        {"text after dict", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), } x", four)},
        {"unterminated", npy("{'descr': '<f4", four)},
    };
    for (auto& c : cases) {
        ember_tensor_t* out = nullptr;
        EM_FAILS(ember_load_npy_buffer(test_ctx(), c.file.data(), c.file.size(), &out), EMBER_ERR_FORMAT, "ember_load_npy_buffer");
        EXPECT_EQ(out, nullptr) << c.why;
    }
    ember_tensor_t* out = nullptr;
    EM_FAILS(ember_load_npy_buffer(test_ctx(), nullptr, 10, &out), EMBER_ERR_INVALID_ARGUMENT, "ember_load_npy_buffer");
    EM_FAILS(ember_load_npy_buffer(nullptr, four.data(), four.size(), &out), EMBER_ERR_INVALID_ARGUMENT, "ember_load_npy_buffer");
}

TEST(IoNpy, FilesOnDisk) {
    std::string p = tmp_path("a.npy");
    T t = sample(EMBER_FLOAT64, {4, 5});
    T tt;
    EM_OK(ember_matrix_transpose(test_ctx(), t, tt.out()));  // non-contiguous: written in C order
    EM_OK(ember_save_npy(test_ctx(), p.c_str(), tt));
    T back;
    EM_OK(ember_load_npy(test_ctx(), p.c_str(), back.out()));
    EXPECT_EQ(shape_of(back), (std::vector<int64_t>{5, 4}));
    EXPECT_EQ(raw(back), raw(tt));
    const char* backend = nullptr;
    EM_OK(ember_tensor_backend(back, &backend, nullptr));
    const char* ctx_backend = nullptr;
    EM_OK(ember_ctx_get_backend(test_ctx(), &ctx_backend, nullptr));
    EXPECT_STREQ(backend, ctx_backend);
    std::remove(p.c_str());
    ember_tensor_t* out = nullptr;
    EM_FAILS(ember_load_npy(test_ctx(), p.c_str(), &out), EMBER_ERR_IO, "ember_load_npy");
    EXPECT_NE(std::string(ember_last_error()).find(p), std::string::npos);
    EM_FAILS(ember_load_npy(test_ctx(), "/tmp", &out), EMBER_ERR_IO, "ember_load_npy");
    EM_FAILS(ember_save_npy(test_ctx(), "/nonexistent-dir/x.npy", tt), EMBER_ERR_IO, "ember_save_npy");
}

// ---------------------------------------------------------------- .npz

TEST(IoNpz, Crc32ReferenceIsRight) {
    Bytes check = str_bytes("123456789");
    EXPECT_EQ(crc32_ref(check, 0, check.size()), 0xCBF43926u);
}

// The library's CRC-32 has two paths: below 256 bytes (and on machines without PCLMULQDQ)
// a table, 16 bytes a step; from 256 bytes, folding four lanes, then one lane, with the
// table for the last bytes. Entries of every length from 128 to 400 bytes (header + data)
// cross all their boundaries. Each stored entry's CRC must be the bytewise reference's.
TEST(IoNpz, Crc32OfEveryLengthMatchesTheReference) {
    Dict d;
    EM_OK(ember_tensor_dict_create(d.out()));
    std::vector<T> keep;
    for (int64_t n = 0; n <= 272; ++n) {
        keep.push_back(sample(EMBER_UINT8, {n}));
        EM_OK(ember_tensor_dict_set(d.d, ("e" + std::to_string(n)).c_str(), keep.back()));
    }
    Buf z;
    EM_OK(ember_save_npz_buffer(test_ctx(), d.d, &z.p, &z.n));
    Bytes f = z.bytes();
    size_t pos = 0;
    for (int64_t n = 0; n <= 272; ++n) {
        ASSERT_EQ(rd32(f, pos), 0x04034b50u);
        uint32_t crc = rd32(f, pos + 14), size = rd32(f, pos + 18);
        size_t data = pos + 30 + rd16(f, pos + 26) + rd16(f, pos + 28);
        ASSERT_EQ(crc32_ref(f, data, size), crc) << "entry of " << size << " bytes";
        pos = data + size;
    }
    Dict back;  // and the loader's check agrees
    EM_OK(ember_load_npz_buffer(test_ctx(), z.p, z.n, back.out()));
}

TEST(IoNpz, WritesAValidStoredZip) {
    Dict d;
    EM_OK(ember_tensor_dict_create(d.out()));
    T a = sample(EMBER_FLOAT32, {2, 3}), b = sample(EMBER_INT64, {5});
    EM_OK(ember_tensor_dict_set(d.d, "a", a));
    EM_OK(ember_tensor_dict_set(d.d, "b", b));
    Buf z;
    EM_OK(ember_save_npz_buffer(test_ctx(), d.d, &z.p, &z.n));
    Bytes f = z.bytes();
    // Walk the local headers independently: signature, method 0, CRC of the data, name.
    size_t pos = 0;
    for (const char* name : {"a.npy", "b.npy"}) {
        ASSERT_LT(pos + 30, f.size());
        EXPECT_EQ(rd32(f, pos), 0x04034b50u);
        EXPECT_EQ(rd16(f, pos + 8), 0);  // stored
        uint32_t crc = rd32(f, pos + 14), size = rd32(f, pos + 18);
        EXPECT_EQ(rd32(f, pos + 22), size);
        uint16_t nlen = rd16(f, pos + 26), xlen = rd16(f, pos + 28);
        EXPECT_EQ(std::string(f.begin() + pos + 30, f.begin() + pos + 30 + nlen), name);
        size_t data = pos + 30 + nlen + xlen;
        EXPECT_EQ(crc32_ref(f, data, size), crc);
        EXPECT_EQ(f[data], 0x93);  // an .npy inside
        pos = data + size;
    }
    EXPECT_EQ(rd32(f, pos), 0x02014b50u);  // central directory follows
    EXPECT_EQ(rd32(f, f.size() - 22), 0x06054b50u);
    EXPECT_EQ(rd16(f, f.size() - 22 + 10), 2);
    Dict back;
    EM_OK(ember_load_npz_buffer(test_ctx(), z.p, z.n, back.out()));
    int64_t n = 0;
    EM_OK(ember_tensor_dict_size(back.d, &n));
    ASSERT_EQ(n, 2);
    const char* name = nullptr;
    ember_tensor_t* t = nullptr;
    EM_OK(ember_tensor_dict_entry(back.d, 1, &name, &t));
    EXPECT_STREQ(name, "b");
    EXPECT_EQ(raw(t), raw(b));
    EM_OK(ember_tensor_dict_find(back.d, "a", &t));
    EXPECT_EQ(raw(t), raw(a));
    EM_FAILS(ember_tensor_dict_find(back.d, "c", &t), EMBER_ERR_INDEX, "ember_tensor_dict_find");
}

TEST(IoNpz, EmptyArchiveAndFiles) {
    Dict d;
    EM_OK(ember_tensor_dict_create(d.out()));
    std::string p = tmp_path("e.npz");
    EM_OK(ember_save_npz(test_ctx(), p.c_str(), d.d));
    Dict back;
    EM_OK(ember_load_npz(test_ctx(), p.c_str(), back.out()));
    int64_t n = -1;
    EM_OK(ember_tensor_dict_size(back.d, &n));
    EXPECT_EQ(n, 0);
    T c = sample(EMBER_COMPLEX128, {3});
    EM_OK(ember_tensor_dict_set(d.d, "nested/name", c));
    EM_OK(ember_save_npz(test_ctx(), p.c_str(), d.d));
    EM_OK(ember_load_npz(test_ctx(), p.c_str(), back.out()));
    ember_tensor_t* t = nullptr;
    EM_OK(ember_tensor_dict_find(back.d, "nested/name", &t));
    EXPECT_EQ(raw(t), raw(c));
    std::remove(p.c_str());
}

TEST(IoNpz, RejectsCorruptedArchives) {
    Dict d;
    EM_OK(ember_tensor_dict_create(d.out()));
    T a = sample(EMBER_FLOAT32, {4}), b = sample(EMBER_UINT8, {3});
    EM_OK(ember_tensor_dict_set(d.d, "a", a));
    EM_OK(ember_tensor_dict_set(d.d, "b", b));
    Buf z;
    EM_OK(ember_save_npz_buffer(test_ctx(), d.d, &z.p, &z.n));
    const Bytes good = z.bytes();
    size_t eocd = good.size() - 22;
    uint32_t cd = rd32(good, eocd + 16);
    auto fails = [](const Bytes& f, const char* why) {
        ember_tensor_dict_t* out = nullptr;
        ember_status_t st = ember_load_npz_buffer(test_ctx(), f.data(), f.size(), &out);
        EXPECT_EQ(st, EMBER_ERR_FORMAT) << why << ": " << ember_last_error();
        EXPECT_NE(std::string(ember_last_error()).find("ember_load_npz_buffer"), std::string::npos);
        EXPECT_EQ(out, nullptr);
        return std::string(ember_last_error());
    };
    Bytes f = good;
    f[60] ^= 0x40;  // a data byte of entry "a"
    EXPECT_NE(fails(f, "crc").find("CRC"), std::string::npos);
    f = good;
    f[8] = 12;  // the local header's method is ignored; the central directory's is what counts
    f[cd + 10] = 12;  // bzip2
    EXPECT_NE(fails(f, "bzip2").find("compression method 12"), std::string::npos);
    f = good;
    f[cd + 10] = 8;  // stored bytes read as DEFLATE data: not a valid stream
    fails(f, "stored read as deflate");
    fails(Bytes(good.begin(), good.begin() + (long)good.size() / 2), "truncated");
    fails(Bytes(good.begin() + 1, good.end()), "shifted");
    f = good;
    f[eocd + 16] = 0xff;  // central directory offset out of range
    fails(f, "cd offset");
    f = good;
    f[eocd + 10] = 0xff;  // 255 entries claimed
    f[eocd + 8] = 0xff;
    fails(f, "count");
    // Second central entry pointing at the first entry's local header: overlapping data.
    f = good;
    size_t cd2 = cd + 46 + 5;
    ASSERT_EQ(rd32(f, cd2), 0x02014b50u);
    f[cd2 + 42] = f[cd + 42];
    f[cd2 + 43] = f[cd + 43];
    f[cd2 + 44] = f[cd + 44];
    f[cd2 + 45] = f[cd + 45];
    fails(f, "second entry pointing at the first");
    fails(str_bytes("PK\x05\x06"), "short");
    fails(Bytes(100, 0), "zeros");
}

// ---------------------------------------------------------------- safetensors

TEST(IoSafetensors, ReadsAHandBuiltFile) {
    // The example of the format description: two tensors, metadata, 8-byte aligned header.
    Bytes data;
    put_raw(data, std::vector<float>{1, 2, 3, 4, 5, 6});
    put_raw(data, std::vector<int64_t>{-1, 7});
    Bytes f = safet("{\"__metadata__\":{\"format\":\"pt\"},\"w\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]},"
                    "\"i\":{\"dtype\":\"I64\",\"shape\":[2],\"data_offsets\":[24,40]}}",
                    data);
    Dict d;
    EM_OK(ember_load_safetensors_buffer(test_ctx(), f.data(), f.size(), d.out()));
    ember_tensor_t* t = nullptr;
    EM_OK(ember_tensor_dict_find(d.d, "w", &t));
    EXPECT_EQ(dtype_of(t), EMBER_FLOAT32);
    EXPECT_EQ(shape_of(t), (std::vector<int64_t>{2, 3}));
    EXPECT_TRUE(all_close(values(t), {1, 2, 3, 4, 5, 6}, 0));
    EM_OK(ember_tensor_dict_find(d.d, "i", &t));
    EXPECT_TRUE(all_close(values(t), {-1, 7}, 0));
    const char* v = nullptr;
    EM_OK(ember_tensor_dict_get_metadata(d.d, "format", &v));
    EXPECT_STREQ(v, "pt");
    EM_FAILS(ember_tensor_dict_get_metadata(d.d, "nope", &v), EMBER_ERR_INDEX, "ember_tensor_dict_get_metadata");
    // Scalars, empty tensors, bf16 bit patterns.
    Bytes d2 = {0x80, 0x3f, 0xc0, 0x7f};  // bf16 1.0, NaN
    f = safet("{\"s\":{\"dtype\":\"BF16\",\"shape\":[],\"data_offsets\":[0,2]},\"e\":{\"dtype\":\"F64\",\"shape\":[0,5],\"data_offsets\":[2,2]},"
              "\"n\":{\"dtype\":\"BF16\",\"shape\":[1],\"data_offsets\":[2,4]}}",
              d2);
    EM_OK(ember_load_safetensors_buffer(test_ctx(), f.data(), f.size(), d.out()));
    EM_OK(ember_tensor_dict_find(d.d, "s", &t));
    EXPECT_EQ(dtype_of(t), EMBER_BFLOAT16);
    EXPECT_EQ(shape_of(t), std::vector<int64_t>{});
    EXPECT_TRUE(all_close(values(t), {1.0}, 0));
    EM_OK(ember_tensor_dict_find(d.d, "e", &t));
    EXPECT_EQ(shape_of(t), (std::vector<int64_t>{0, 5}));
    EM_OK(ember_tensor_dict_find(d.d, "n", &t));
    EXPECT_TRUE(std::isnan(values(t)[0]));
}

TEST(IoSafetensors, RoundTripEveryDtypeWithProvenance) {
    Dict d;
    EM_OK(ember_tensor_dict_create(d.out()));
    std::vector<T> keep;
    for (ember_dtype_t dt : all_dtypes) {
        keep.push_back(sample(dt, {2, 3}));
        EM_OK(ember_tensor_dict_set(d.d, ember_dtype_name(dt), keep.back()));
    }
    T scalar = sample(EMBER_COMPLEX64, {});
    EM_OK(ember_tensor_dict_set(d.d, "scalar c64", scalar));
    EM_OK(ember_tensor_dict_set_metadata(d.d, "author", "test \"quoted\" \xc3\xa9"));
    Buf b;
    EM_OK(ember_save_safetensors_buffer(test_ctx(), d.d, &b.p, &b.n));
    Bytes f = b.bytes();
    uint64_t hlen = 0;
    for (int i = 0; i < 8; ++i) hlen |= (uint64_t)f[i] << (8 * i);
    EXPECT_EQ(hlen % 8, 0u) << "data section must start 8-aligned";
    std::string header(f.begin() + 8, f.begin() + 8 + (long)hlen);
    EXPECT_NE(header.find("\"dtype\":\"BF16\""), std::string::npos) << header;
    EXPECT_NE(header.find("\"ember.version\":\"" EMBER_VERSION_STRING "\""), std::string::npos) << header;
    EXPECT_NE(header.find("\"ember.dtype.complex128\":\"complex128\""), std::string::npos) << header;
    EXPECT_NE(header.find("\"ember.backend\":\""), std::string::npos) << header;
    // complex128 (2, 3) is stored as F64 (2, 3, 2).
    EXPECT_NE(header.find("\"complex128\":{\"dtype\":\"F64\",\"shape\":[2,3,2]"), std::string::npos) << header;
    Dict back;
    EM_OK(ember_load_safetensors_buffer(test_ctx(), b.p, b.n, back.out()));
    int64_t n = 0;
    EM_OK(ember_tensor_dict_size(back.d, &n));
    EXPECT_EQ(n, 16);
    for (size_t k = 0; k < keep.size(); ++k) {
        ember_tensor_t* t = nullptr;
        EM_OK(ember_tensor_dict_find(back.d, ember_dtype_name(all_dtypes[k]), &t));
        EXPECT_EQ(dtype_of(t), all_dtypes[k]);
        EXPECT_EQ(shape_of(t), (std::vector<int64_t>{2, 3}));
        EXPECT_EQ(raw(t), raw(keep[k])) << ember_dtype_name(all_dtypes[k]);
    }
    ember_tensor_t* t = nullptr;
    EM_OK(ember_tensor_dict_find(back.d, "scalar c64", &t));
    EXPECT_EQ(dtype_of(t), EMBER_COMPLEX64);
    EXPECT_EQ(shape_of(t), std::vector<int64_t>{});
    const char* v = nullptr;
    EM_OK(ember_tensor_dict_get_metadata(back.d, "author", &v));
    EXPECT_STREQ(v, "test \"quoted\" \xc3\xa9");
}

TEST(IoSafetensors, RejectsHostileFiles) {
    Bytes eight(8, 0);
    auto one = [](const std::string& entry) { return "{\"x\":" + entry + "}"; };
    struct Case {
        const char* why;
        Bytes file;
    } cases[] = {
        {"empty", {}},
        {"short length", Bytes{1, 0, 0}},
        {"header bigger than file", [] { Bytes b; put_le(b, 1000, 8); b.push_back('{'); return b; }()},
        {"header length 2^64-1", Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, '{', '}'}},
        {"not json", safet("{\"x\":", eight)},
        {"not an object", safet("[1,2]   ", eight)},
        {"trailing text", safet("{} x", eight)},
        {"nul byte", safet(std::string("{}\0 ", 4), eight)},
        {"wrong dtype", safet(one("{\"dtype\":\"F33\",\"shape\":[2],\"data_offsets\":[0,8]}"), eight)},
        {"fp8 dtype", safet(one("{\"dtype\":\"F8_E4M3\",\"shape\":[8],\"data_offsets\":[0,8]}"), eight)},
        {"dtype not string", safet(one("{\"dtype\":3,\"shape\":[2],\"data_offsets\":[0,8]}"), eight)},
        {"offsets out of range", safet(one("{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}"), eight)},
        {"offsets reversed", safet(one("{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[8,0]}"), eight)},
        {"size mismatch", safet(one("{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}"), eight)},
        {"huge shape", safet(one("{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,8]}"), eight)},
        {"huge shape with a zero", safet(one("{\"dtype\":\"F32\",\"shape\":[0,4294967296,4294967296,4294967296],\"data_offsets\":[0,0]}"), eight)},
        {"negative dim", safet(one("{\"dtype\":\"F32\",\"shape\":[-2],\"data_offsets\":[0,8]}"), eight)},
        {"fractional dim", safet(one("{\"dtype\":\"F32\",\"shape\":[1.5],\"data_offsets\":[0,8]}"), eight)},
        {"17 dims", safet(one("{\"dtype\":\"U8\",\"shape\":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,8],\"data_offsets\":[0,8]}"), eight)},
        {"one offset", safet(one("{\"dtype\":\"U8\",\"shape\":[8],\"data_offsets\":[0]}"), eight)},
        {"no shape", safet(one("{\"dtype\":\"U8\",\"data_offsets\":[0,8]}"), eight)},
        {"overlap", safet("{\"a\":{\"dtype\":\"U8\",\"shape\":[6],\"data_offsets\":[0,6]},\"b\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[4,8]}}", eight)},
        {"duplicate", safet("{\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]},\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[4,8]}}", eight)},
        {"metadata not strings", safet("{\"__metadata__\":{\"k\":1}}", eight)},
        {"metadata not object", safet("{\"__metadata__\":[]}", eight)},
        {"entry not object", safet("{\"x\":5}", eight)},
        {"deep nesting", safet(std::string(5000, '[') + std::string(5000, ']'), eight)},
    };
    for (auto& c : cases) {
        ember_tensor_dict_t* out = nullptr;
        ember_status_t st = ember_load_safetensors_buffer(test_ctx(), c.file.data(), c.file.size(), &out);
        EXPECT_EQ(st, EMBER_ERR_FORMAT) << c.why << ": " << ember_last_error();
        EXPECT_NE(std::string(ember_last_error()).find("ember_load_safetensors_buffer"), std::string::npos) << c.why;
        EXPECT_EQ(out, nullptr) << c.why;
    }
    // Gaps are legal (and ignored); zero-size tensors may share an offset.
    Bytes ok = safet("{\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]},\"z\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[4,4]},"
                     "\"y\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[4,4]}}",
                     eight);
    Dict d;
    EM_OK(ember_load_safetensors_buffer(test_ctx(), ok.data(), ok.size(), d.out()));
}

TEST(IoSafetensors, FilesAndSingleTensorHelpers) {
    std::string p = tmp_path("one.safetensors");
    T t = sample(EMBER_FLOAT16, {3, 2});
    EM_OK(ember_save(test_ctx(), p.c_str(), t));
    Dict d;
    EM_OK(ember_load_safetensors(test_ctx(), p.c_str(), d.out()));
    ember_tensor_t* named = nullptr;
    EM_OK(ember_tensor_dict_find(d.d, "tensor", &named));
    EXPECT_EQ(raw(named), raw(t));
    T back;
    EM_OK(ember_load(test_ctx(), p.c_str(), back.out()));
    EXPECT_EQ(raw(back), raw(t));
    std::remove(p.c_str());
    std::string q = tmp_path("one.npy");
    EM_OK(ember_save(test_ctx(), q.c_str(), t));
    EM_OK(ember_load(test_ctx(), q.c_str(), back.out()));
    EXPECT_EQ(raw(back), raw(t));
    std::remove(q.c_str());
    EM_FAILS(ember_save(test_ctx(), "/tmp/x.bin", t), EMBER_ERR_INVALID_ARGUMENT, "ember_save");
    ember_tensor_t* out = nullptr;
    EM_FAILS(ember_load(test_ctx(), "/tmp/ember-no-such-file.safetensors", &out), EMBER_ERR_IO, "ember_load");
    // Two tensors, neither named "tensor": ember_load cannot choose.
    EM_OK(ember_tensor_dict_create(d.out()));
    EM_OK(ember_tensor_dict_set(d.d, "a", t));
    EM_OK(ember_tensor_dict_set(d.d, "b", t));
    EM_OK(ember_save_safetensors(test_ctx(), p.c_str(), d.d));
    EM_FAILS(ember_load(test_ctx(), p.c_str(), &out), EMBER_ERR_FORMAT, "ember_load");
    std::remove(p.c_str());
    EM_OK(ember_tensor_dict_set(d.d, "__metadata__", t));
    Buf b;
    EM_FAILS(ember_save_safetensors_buffer(test_ctx(), d.d, &b.p, &b.n), EMBER_ERR_INVALID_ARGUMENT, "ember_save_safetensors_buffer");
}

TEST(IoDict, ReplaceAndErrors) {
    Dict d;
    EM_OK(ember_tensor_dict_create(d.out()));
    T a = sample(EMBER_INT32, {2}), b = sample(EMBER_INT32, {3});
    EM_OK(ember_tensor_dict_set(d.d, "x", a));
    EM_OK(ember_tensor_dict_set(d.d, "x", b));
    int64_t n = 0;
    EM_OK(ember_tensor_dict_size(d.d, &n));
    EXPECT_EQ(n, 1);
    ember_tensor_t* t = nullptr;
    EM_OK(ember_tensor_dict_find(d.d, "x", &t));
    EXPECT_EQ(shape_of(t), std::vector<int64_t>{3});
    EM_FAILS(ember_tensor_dict_entry(d.d, 1, nullptr, &t), EMBER_ERR_INDEX, "ember_tensor_dict_entry");
    EM_FAILS(ember_tensor_dict_set(d.d, nullptr, a), EMBER_ERR_INVALID_ARGUMENT, "ember_tensor_dict_set");
    EM_FAILS(ember_tensor_dict_size(nullptr, &n), EMBER_ERR_INVALID_ARGUMENT, "ember_tensor_dict_size");
    EM_FAILS(ember_tensor_dict_metadata_entry(d.d, 0, nullptr, nullptr), EMBER_ERR_INDEX, "ember_tensor_dict_metadata_entry");
    ember_tensor_dict_release(nullptr);
    ember_io_free(nullptr);
}

// ---------------------------------------------------------------- fuzzer corpus and regressions

std::string source_dir() {
    std::string f = __FILE__;
    return f.substr(0, f.find_last_of('/'));
}

// Every file the fuzzer ever crashed on (tests/fuzz/regressions) and the seed corpus must
// load or fail cleanly through every loader.
TEST(IoFuzz, ReplayCorpusAndRegressions) {
    int files = 0;
    for (const char* sub : {"/fuzz/regressions", "/fuzz/corpus"}) {
        std::string dir = source_dir() + sub;
        DIR* dp = opendir(dir.c_str());
        if (!dp) {
            ADD_FAILURE() << "missing " << dir;
            continue;
        }
        while (dirent* e = readdir(dp)) {
            if (e->d_name[0] == '.') continue;
            std::ifstream in(dir + "/" + e->d_name, std::ios::binary);
            Bytes f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            ++files;
            ember_tensor_t* t = nullptr;
            ember_tensor_dict_t* d = nullptr;
            ember_status_t st = ember_load_npy_buffer(test_ctx(), f.data(), f.size(), &t);
            EXPECT_TRUE(st == EMBER_OK || st == EMBER_ERR_FORMAT) << e->d_name << ": " << ember_last_error();
            ember_tensor_release(t);
            st = ember_load_npz_buffer(test_ctx(), f.data(), f.size(), &d);
            EXPECT_TRUE(st == EMBER_OK || st == EMBER_ERR_FORMAT) << e->d_name << ": " << ember_last_error();
            ember_tensor_dict_release(d);
            d = nullptr;
            st = ember_load_safetensors_buffer(test_ctx(), f.data(), f.size(), &d);
            EXPECT_TRUE(st == EMBER_OK || st == EMBER_ERR_FORMAT) << e->d_name << ": " << ember_last_error();
            ember_tensor_dict_release(d);
        }
        closedir(dp);
    }
    EXPECT_GT(files, 5);
}

}  // namespace

namespace {
// Files written by NumPy itself (committed in the seed corpus): np.save and np.savez, whose
// local headers carry zip64 extra fields (force_zip64).
Bytes read_file(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
TEST(IoNumpyFiles, ReadsWhatNumpyWrote) {
    std::string dir = source_dir() + "/fuzz/corpus/";
    Bytes f = read_file(dir + "two.npz");
    ASSERT_FALSE(f.empty());
    Dict d;
    EM_OK(ember_load_npz_buffer(test_ctx(), f.data(), f.size(), d.out()));
    ember_tensor_t* t = nullptr;
    EM_OK(ember_tensor_dict_find(d.d, "a", &t));
    EXPECT_EQ(dtype_of(t), EMBER_INT64);
    EXPECT_TRUE(all_close(values(t), {0, 1, 2, 3}, 0));
    EM_OK(ember_tensor_dict_find(d.d, "b", &t));
    EXPECT_EQ(dtype_of(t), EMBER_FLOAT16);
    EXPECT_TRUE(all_close(values(t), {1, 1, 1, 1}, 0));
    f = read_file(dir + "bool_fortran.npy");
    T x;
    EM_OK(ember_load_npy_buffer(test_ctx(), f.data(), f.size(), x.out()));
    EXPECT_EQ(shape_of(x), (std::vector<int64_t>{2, 3}));
    EXPECT_TRUE(all_close(values(x), {1, 0, 1, 0, 0, 1}, 0));
    f = read_file(dir + "compressed.npz");  // numpy.savez_compressed
    Dict c;
    EM_OK(ember_load_npz_buffer(test_ctx(), f.data(), f.size(), c.out()));
    EM_OK(ember_tensor_dict_find(c.d, "a", &t));
    EXPECT_TRUE(all_close(values(t), {0, 1, 2, 3}, 0));
}

// blocks.npz (seed corpus) holds deflated entries of each DEFLATE block kind, written by
// Python's zipfile and np.lib.format: ramp (dynamic Huffman codes), noise (level 0: stored
// blocks), pattern, scalar and empty (fixed codes).
struct CentralEntry {
    size_t at;  // offset of the central directory record
    uint32_t csize, usize, local;
};
CentralEntry central_entry(const Bytes& f, const std::string& name) {
    size_t eocd = f.size() - 22;
    size_t pos = rd32(f, eocd + 16);
    for (int k = 0; k < rd16(f, eocd + 10); ++k) {
        uint16_t nlen = rd16(f, pos + 28), xlen = rd16(f, pos + 30), clen = rd16(f, pos + 32);
        if (std::string((const char*)&f[pos + 46], nlen) == name) return {pos, rd32(f, pos + 20), rd32(f, pos + 24), rd32(f, pos + 42)};
        pos += 46 + nlen + xlen + clen;
    }
    ADD_FAILURE() << name << " not in the archive";
    return {};
}
void wr32(Bytes& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = (uint8_t)(v >> (8 * i));
}

TEST(IoNumpyFiles, ReadsEveryDeflateBlockKind) {
    Bytes f = read_file(source_dir() + "/fuzz/corpus/blocks.npz");
    ASSERT_FALSE(f.empty());
    Dict d;
    EM_OK(ember_load_npz_buffer(test_ctx(), f.data(), f.size(), d.out()));
    ember_tensor_t* t = nullptr;
    EM_OK(ember_tensor_dict_find(d.d, "ramp", &t));
    EXPECT_EQ(shape_of(t), (std::vector<int64_t>{30, 50}));
    std::vector<double> ramp = values(t);
    for (size_t i = 0; i < ramp.size(); ++i) ASSERT_EQ(ramp[i], (double)i);
    EM_OK(ember_tensor_dict_find(d.d, "noise", &t));  // NumPy's default_rng(7) bytes
    EXPECT_EQ(dtype_of(t), EMBER_UINT8);
    std::vector<double> noise = values(t);
    ASSERT_EQ(noise.size(), 4000u);
    EXPECT_EQ(std::accumulate(noise.begin(), noise.end(), 0.0), 516515.0);
    EXPECT_EQ((std::vector<double>(noise.begin(), noise.begin() + 4)), (std::vector<double>{139, 74, 229, 241}));
    EXPECT_EQ((std::vector<double>(noise.end() - 3, noise.end())), (std::vector<double>{130, 177, 50}));
    EM_OK(ember_tensor_dict_find(d.d, "pattern", &t));
    std::vector<double> pattern = values(t);
    for (size_t i = 0; i < pattern.size(); ++i) ASSERT_EQ(pattern[i], i % 7 == 0 ? 1.0 : 0.0) << i;
    EM_OK(ember_tensor_dict_find(d.d, "scalar", &t));
    EXPECT_EQ(values(t), (std::vector<double>{2.5}));
    EM_OK(ember_tensor_dict_find(d.d, "empty", &t));
    EXPECT_EQ(shape_of(t), (std::vector<int64_t>{0, 3}));
}

// ember_save_npz_compressed: every entry deflated, read back exactly by our decoder (and by
// NumPy in scripts/check-io-interop.sh and tests/python/test_io.py). The contents steer the
// encoder through each block kind: runs (distance-1 matches), a ramp (dynamic codes),
// random bytes (stored blocks), tiny and empty entries (fixed codes), and entries past the
// block size of 2 x 65535 bytes (matches that reach into the previous block).
TEST(IoNpz, CompressedArchivesRoundTrip) {
    std::mt19937 rng(5);
    std::vector<double> noise(300000), ramp(200000), runs(150000, 0.0), words(70000);
    for (auto& v : noise) v = (double)(rng() % 256);
    for (size_t i = 0; i < ramp.size(); ++i) ramp[i] = (double)(i / 3);
    for (size_t i = 100000; i < runs.size(); ++i) runs[i] = 7;
    const char* vocab[] = {"alpha", "beta", "gamma", "delta"};
    for (size_t i = 0; i < words.size(); ++i) words[i] = (double)vocab[rng() % 4][i % 5];
    Dict d;
    EM_OK(ember_tensor_dict_create(d.out()));
    std::vector<std::pair<std::string, T>> entries;  // T is move-only
    entries.emplace_back("noise", make(noise, {300000}, EMBER_UINT8));
    entries.emplace_back("ramp", make(ramp, {1000, 200}, EMBER_INT64));
    entries.emplace_back("runs", make(runs, {150000}, EMBER_FLOAT32));
    entries.emplace_back("words", make(words, {70000}, EMBER_INT8));
    entries.emplace_back("tiny", sample(EMBER_COMPLEX64, {3}));
    entries.emplace_back("empty", sample(EMBER_FLOAT64, {0, 4}));
    entries.emplace_back("scalar", sample(EMBER_INT16, {}));
    for (auto& [name, t] : entries) EM_OK(ember_tensor_dict_set(d.d, name.c_str(), t));
    Buf plain, packed;
    EM_OK(ember_save_npz_buffer(test_ctx(), d.d, &plain.p, &plain.n));
    EM_OK(ember_save_npz_compressed_buffer(test_ctx(), d.d, &packed.p, &packed.n));
    EXPECT_LT(packed.n, plain.n * 2 / 3) << "ramp, runs and words compress well";
    Bytes f = packed.bytes();
    for (auto& [name, t] : entries) {
        CentralEntry c = central_entry(f, name + ".npy");
        EXPECT_EQ(rd16(f, c.at + 10), 8) << name << ": deflated";
        if (name == "runs" || name == "ramp") {
            EXPECT_LT(c.csize * 10, c.usize) << name;
        }
        if (name == "noise") {
            EXPECT_LE(c.csize, c.usize + 5 * (c.usize / 65535 + 2)) << "random bytes are stored, not expanded";
        }
    }
    Dict back;
    EM_OK(ember_load_npz_buffer(test_ctx(), packed.p, packed.n, back.out()));
    for (auto& [name, t] : entries) {
        ember_tensor_t* got = nullptr;
        EM_OK(ember_tensor_dict_find(back.d, name.c_str(), &got));
        EXPECT_EQ(shape_of(got), shape_of(t)) << name;
        EXPECT_EQ(raw(got), raw(t)) << name;
    }
    std::string p = tmp_path("c.npz");  // the file form
    EM_OK(ember_save_npz_compressed(test_ctx(), p.c_str(), d.d));
    Dict from_file;
    EM_OK(ember_load_npz(test_ctx(), p.c_str(), from_file.out()));
    std::remove(p.c_str());
    ember_tensor_dict_t* none = nullptr;
    EM_FAILS(ember_save_npz_compressed(test_ctx(), nullptr, d.d), EMBER_ERR_INVALID_ARGUMENT, "ember_save_npz_compressed");
    EM_FAILS(ember_save_npz_compressed_buffer(test_ctx(), none, &packed.p, &packed.n), EMBER_ERR_INVALID_ARGUMENT,
             "ember_save_npz_compressed_buffer");
}

TEST(IoNumpyFiles, RejectsCorruptedDeflateData) {
    const Bytes good = read_file(source_dir() + "/fuzz/corpus/blocks.npz");
    ASSERT_FALSE(good.empty());
    auto fails = [](const Bytes& f, const char* why) {
        ember_tensor_dict_t* out = nullptr;
        EXPECT_EQ(ember_load_npz_buffer(test_ctx(), f.data(), f.size(), &out), EMBER_ERR_FORMAT) << why;
        EXPECT_EQ(out, nullptr);
        EXPECT_EQ(ember_live_tensor_count(), 0) << why << ": a failed load keeps no tensor";
        return std::string(ember_last_error());
    };
    const CentralEntry ramp = central_entry(good, "ramp.npy"), noise = central_entry(good, "noise.npy");
    const size_t ramp_data = ramp.local + 30 + rd16(good, ramp.local + 26) + rd16(good, ramp.local + 28);
    // Any flipped bit of the dynamic-Huffman data: an invalid code, a bad distance, a wrong
    // size or a CRC mismatch, but always a FORMAT error naming the entry.
    for (size_t k = 0; k < ramp.csize; k += 37) {
        Bytes f = good;
        f[ramp_data + k] ^= (uint8_t)(1u << (k % 8));
        std::string msg = fails(f, "flipped bit");
        EXPECT_NE(msg.find("ramp.npy"), std::string::npos) << msg;
    }
    Bytes f = good;
    wr32(f, ramp.at + 24, ramp.usize - 1);
    EXPECT_NE(fails(f, "declared one byte short").find("longer than its declared"), std::string::npos);
    f = good;
    wr32(f, ramp.at + 24, ramp.usize + 1);
    EXPECT_NE(fails(f, "declared one byte long").find("not the declared"), std::string::npos);
    f = good;
    wr32(f, ramp.at + 24, 0xfffffff0u);  // a 4 GiB claim from 1.9 KB: refused before allocating
    EXPECT_NE(fails(f, "zip bomb").find("cannot come from"), std::string::npos);
    f = good;
    wr32(f, noise.at + 20, noise.csize - 100);  // stored blocks cut short
    EXPECT_NE(fails(f, "truncated").find("ends early"), std::string::npos);
    const size_t noise_data = noise.local + 30 + rd16(good, noise.local + 26) + rd16(good, noise.local + 28);
    f = good;
    f[noise_data + 1] ^= 0xff;  // a stored block's LEN no longer matches NLEN
    EXPECT_NE(fails(f, "stored length").find("length check"), std::string::npos);
    f = good;
    f[noise_data] |= 0x06;  // block type 3
    EXPECT_NE(fails(f, "block type 3").find("block type 3"), std::string::npos);
}
}  // namespace
