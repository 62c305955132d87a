// Shared pieces of the tensor-file readers and writers (src/core/io*.cpp): bounded byte
// input, output sinks, little-endian helpers, CRC-32, the tensor dictionary.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "../ops/dispatch.hpp"
#include "internal.hpp"

struct ember_tensor_dict {
    std::vector<std::pair<std::string, ember::TRef>> entries;
    std::vector<std::pair<std::string, std::string>> metadata;
};

namespace ember::io {

// A read-only byte range every parser works on; `at` and `need` never read past the end.
struct Bytes {
    const uint8_t* p = nullptr;
    size_t n = 0;
};

// Throws EMBER_ERR_FORMAT unless [off, off + len) lies inside b.
inline void need(const Bytes& b, uint64_t off, uint64_t len, const char* what) {
    if (off > b.n || len > b.n - off)
        raise(EMBER_ERR_FORMAT, "%s at offset %llu (%llu bytes) extends past the end of the data (%zu bytes)", what,
              (unsigned long long)off, (unsigned long long)len, b.n);
}
inline uint16_t le16(const uint8_t* p) { return (uint16_t)(p[0] | (p[1] << 8)); }
inline uint32_t le32(const uint8_t* p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24); }
inline uint64_t le64(const uint8_t* p) { return (uint64_t)le32(p) | ((uint64_t)le32(p + 4) << 32); }
inline void put16(std::string& s, uint16_t v) {
    s.push_back((char)(v & 0xff));
    s.push_back((char)(v >> 8));
}
inline void put32(std::string& s, uint32_t v) {
    put16(s, (uint16_t)(v & 0xffff));
    put16(s, (uint16_t)(v >> 16));
}
inline void put64(std::string& s, uint64_t v) {
    put32(s, (uint32_t)(v & 0xffffffffu));
    put32(s, (uint32_t)(v >> 32));
}

constexpr bool host_little_endian() {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return false;
#else
    return true;
#endif
}
// Reverses the bytes of each `width`-byte word in place.
void byteswap(void* data, size_t nbytes, size_t width);

uint32_t crc32(const void* data, size_t n, uint32_t crc = 0);
// Raw DEFLATE data (zip method 8) decoded into exactly out_size bytes; EMBER_ERR_FORMAT,
// naming `what`, for anything malformed or of another size (inflate.cpp).
std::vector<uint8_t> inflate_raw(Bytes in, uint64_t out_size, const char* what);
// Raw DEFLATE data for n bytes (deflate.cpp).
std::vector<uint8_t> deflate_raw(const uint8_t* p, size_t n);

// A whole file mapped read-only (or empty). Throws EMBER_ERR_IO.
class MappedFile {
   public:
    explicit MappedFile(const char* path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    Bytes bytes() const { return {(const uint8_t*)addr_, size_}; }

   private:
    void* addr_ = nullptr;
    size_t size_ = 0;
};

// Where a writer puts bytes: a growing buffer or a file (written to "<path>.tmp" and renamed
// over path by commit(), so a failed save never leaves a half-written file at path).
class Sink {
   public:
    explicit Sink(const char* path);  // nullptr: memory
    ~Sink();
    void write(const void* data, size_t n);
    void write(const std::string& s) { write(s.data(), s.size()); }
    uint64_t position() const { return pos_; }
    void commit();  // files: flush, close and rename
    std::string& buffer() { return buf_; }
    // Hands the memory buffer to the caller as malloc'd memory.
    void release_to(void** data, size_t* size);

   private:
    std::string path_, tmp_;
    FILE* f_ = nullptr;
    std::string buf_;
    uint64_t pos_ = 0;
};

// Element count of shape, checked: every dim >= 0, at most EMBER_MAX_DIMS dims, the product
// of the non-zero dims below 2^48, and numel * itemsize <= limit_bytes.
int64_t checked_numel(const Shape& shape, size_t itemsize, uint64_t limit_bytes, const char* what);

// New tensor on ctx's backend holding a copy of the C-ordered host bytes.
TRef tensor_from_bytes(ember_ctx* ctx, ember_dtype_t dtype, const Shape& shape, const void* data);
// C-ordered host copy of any tensor (synchronises).
std::vector<uint8_t> tensor_bytes(const ember_tensor* t);

// .npy pieces shared with .npz.
std::string npy_encode_header(ember_dtype_t dtype, const ember_tensor* t);
TRef npy_decode(ember_ctx* ctx, Bytes b, const char* what);

void check_dict(const ember_tensor_dict* d);
void check_out_buffer(void** data, size_t* size);

}  // namespace ember::io
