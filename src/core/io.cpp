// Tensor files, shared parts and NumPy formats: the tensor dictionary, bounded file input,
// output sinks, .npy (format 1/2/3) and .npz (zip, stored or deflated entries, zip64 aware).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <memory>

#include "io_common.hpp"

namespace ember::io {

void byteswap(void* data, size_t nbytes, size_t width) {
    if (width <= 1) return;
    auto* p = (uint8_t*)data;
    for (size_t i = 0; i + width <= nbytes; i += width) std::reverse(p + i, p + i + width);
}

MappedFile::MappedFile(const char* path) {
    int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) raise(EMBER_ERR_IO, "cannot open '%s': %s", path, std::strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        ::close(fd);
        raise(EMBER_ERR_IO, "cannot stat '%s': %s", path, std::strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        raise(EMBER_ERR_IO, "'%s' is not a regular file", path);
    }
    size_ = (size_t)st.st_size;
    if (size_ > 0) {
        addr_ = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (addr_ == MAP_FAILED) {
            int e = errno;
            addr_ = nullptr;
            ::close(fd);
            raise(EMBER_ERR_IO, "cannot map '%s': %s", path, std::strerror(e));
        }
    }
    ::close(fd);
}
MappedFile::~MappedFile() {
    if (addr_) munmap(addr_, size_);
}

Sink::Sink(const char* path) {
    if (!path) return;
    path_ = path;
    tmp_ = path_ + ".tmp";
    f_ = std::fopen(tmp_.c_str(), "wb");
    if (!f_) raise(EMBER_ERR_IO, "cannot create '%s': %s", tmp_.c_str(), std::strerror(errno));
}
Sink::~Sink() {
    if (f_) {
        std::fclose(f_);
        std::remove(tmp_.c_str());
    }
}
void Sink::write(const void* data, size_t n) {
    if (!n) return;
    if (f_) {
        if (std::fwrite(data, 1, n, f_) != n) raise(EMBER_ERR_IO, "cannot write '%s': %s", tmp_.c_str(), std::strerror(errno));
    } else {
        buf_.append((const char*)data, n);
    }
    pos_ += n;
}
void Sink::commit() {
    if (!f_) return;
    FILE* f = f_;
    f_ = nullptr;
    bool ok = std::fflush(f) == 0;
    int e = errno;
    ok = std::fclose(f) == 0 && ok;
    if (!ok) {
        std::remove(tmp_.c_str());
        raise(EMBER_ERR_IO, "cannot write '%s': %s", tmp_.c_str(), std::strerror(e));
    }
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
        e = errno;
        std::remove(tmp_.c_str());
        raise(EMBER_ERR_IO, "cannot rename '%s' to '%s': %s", tmp_.c_str(), path_.c_str(), std::strerror(e));
    }
}
void Sink::release_to(void** data, size_t* size) {
    void* p = std::malloc(buf_.size() ? buf_.size() : 1);
    if (!p) throw std::bad_alloc();
    if (!buf_.empty()) std::memcpy(p, buf_.data(), buf_.size());
    *data = p;
    *size = buf_.size();
}

int64_t checked_numel(const Shape& shape, size_t itemsize, uint64_t limit_bytes, const char* what) {
    if (shape.size() > EMBER_MAX_DIMS)
        raise(EMBER_ERR_FORMAT, "%s has %zu dimensions; Ember supports at most %d", what, shape.size(), EMBER_MAX_DIMS);
    uint64_t nonzero = 1;
    bool empty = false;
    for (int64_t d : shape) {
        if (d < 0) raise(EMBER_ERR_FORMAT, "%s has a negative dimension %lld", what, (long long)d);
        if (d == 0) {
            empty = true;
            continue;
        }
        if ((uint64_t)d > (1ull << 48) / nonzero) raise(EMBER_ERR_FORMAT, "%s has an impossibly large shape %s", what, shape_str(shape).c_str());
        nonzero *= (uint64_t)d;
    }
    uint64_t n = empty ? 0 : nonzero;
    if (n > limit_bytes / (itemsize ? itemsize : 1))
        raise(EMBER_ERR_FORMAT, "%s of shape %s needs %llu bytes but only %llu are available", what, shape_str(shape).c_str(),
              (unsigned long long)(n * itemsize), (unsigned long long)limit_bytes);
    return (int64_t)n;
}

TRef tensor_from_bytes(ember_ctx* ctx, ember_dtype_t dtype, const Shape& shape, const void* data) {
    static const uint8_t dummy[16] = {};
    // Files may hold any byte in a bool; only 0 and 1 are valid bool values in C++ kernels.
    // Like NumPy, read every non-zero byte as true.
    std::vector<uint8_t> norm;
    if (dtype == EMBER_BOOL && data) {
        int64_t n = numel(shape);
        const uint8_t* p = (const uint8_t*)data;
        norm.resize((size_t)n);
        for (int64_t i = 0; i < n; ++i) norm[(size_t)i] = p[i] != 0;
        data = norm.data();
    }
    ember_tensor_t* t = nullptr;
    ember_status_t st = ember_tensor_from_data(ctx, data ? data : dummy, dtype, shape.data(), (int)shape.size(), &t);
    if (st != EMBER_OK) raise(st, "%s", ember_last_error());
    return TRef(t);
}

std::vector<uint8_t> tensor_bytes(const ember_tensor* t) {
    std::vector<uint8_t> v((size_t)t->size * dtype_size(t->dtype));
    if (!v.empty()) read_contiguous(t, v.data(), v.size());
    if (!host_little_endian()) byteswap(v.data(), v.size(), is_complex(t->dtype) ? dtype_size(t->dtype) / 2 : dtype_size(t->dtype));
    return v;
}

void check_dict(const ember_tensor_dict* d) { require_arg(d, "dict"); }
void check_out_buffer(void** data, size_t* size) {
    require_arg(data, "data");
    require_arg(size, "size");
}

// ---------------------------------------------------------------- .npy
namespace {

const char* npy_descr(ember_dtype_t d) {
    switch (d) {
        case EMBER_BOOL: return "|b1";
        case EMBER_INT8: return "|i1";
        case EMBER_INT16: return "<i2";
        case EMBER_INT32: return "<i4";
        case EMBER_INT64: return "<i8";
        case EMBER_UINT8: return "|u1";
        case EMBER_UINT16: return "<u2";
        case EMBER_UINT32: return "<u4";
        case EMBER_UINT64: return "<u8";
        case EMBER_FLOAT16: return "<f2";
        case EMBER_FLOAT32: return "<f4";
        case EMBER_FLOAT64: return "<f8";
        case EMBER_COMPLEX64: return "<c8";
        case EMBER_COMPLEX128: return "<c16";
        default: return nullptr;
    }
}

// The Python dict literal of a .npy header, parsed by a strict little recursive scanner.
struct NpyHeader {
    std::string descr;
    bool have_descr = false, have_fortran = false, have_shape = false;
    bool fortran = false;
    Shape shape;
};

class DictParser {
   public:
    DictParser(const char* p, size_t n) : p_(p), end_(p + n) {}
    NpyHeader parse() {
        NpyHeader h;
        ws();
        expect('{');
        for (;;) {
            ws();
            if (peek() == '}') {
                ++p_;
                break;
            }
            std::string key = str();
            ws();
            expect(':');
            ws();
            if (key == "descr") {
                if (peek() != '\'' && peek() != '"') fail("'descr' must be a plain dtype string (structured dtypes are not supported)");
                h.descr = str();
                h.have_descr = true;
            } else if (key == "fortran_order") {
                h.fortran = boolean();
                h.have_fortran = true;
            } else if (key == "shape") {
                h.shape = tuple();
                h.have_shape = true;
            } else {
                fail(("unexpected key '" + key + "'").c_str());
            }
            ws();
            if (peek() == ',') {
                ++p_;
                continue;
            }
            ws();
            expect('}');
            break;
        }
        ws();
        if (p_ != end_) fail("text after the closing '}'");
        if (!h.have_descr || !h.have_fortran || !h.have_shape) fail("missing 'descr', 'fortran_order' or 'shape'");
        return h;
    }

   private:
    [[noreturn]] void fail(const char* why) { raise(EMBER_ERR_FORMAT, "malformed .npy header: %s", why); }
    char peek() { return p_ < end_ ? *p_ : '\0'; }
    void ws() {
        while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\t' || *p_ == '\r')) ++p_;
    }
    void expect(char c) {
        if (peek() != c) fail((std::string("expected '") + c + "'").c_str());
        ++p_;
    }
    std::string str() {
        char q = peek();
        if (q != '\'' && q != '"') fail("expected a quoted string");
        ++p_;
        std::string s;
        while (p_ < end_ && *p_ != q) {
            if (*p_ == '\\' || s.size() > 64) fail("unsupported string");
            s.push_back(*p_++);
        }
        expect(q);
        return s;
    }
    bool boolean() {
        if (end_ - p_ >= 4 && std::memcmp(p_, "True", 4) == 0) {
            p_ += 4;
            return true;
        }
        if (end_ - p_ >= 5 && std::memcmp(p_, "False", 5) == 0) {
            p_ += 5;
            return false;
        }
        fail("'fortran_order' must be True or False");
    }
    Shape tuple() {
        char close = peek() == '(' ? ')' : peek() == '[' ? ']' : '\0';
        if (!close) fail("'shape' must be a tuple");
        ++p_;
        Shape s;
        for (;;) {
            ws();
            if (peek() == close) {
                ++p_;
                return s;
            }
            if (!(peek() >= '0' && peek() <= '9')) fail("'shape' must hold non-negative integers");
            uint64_t v = 0;
            while (peek() >= '0' && peek() <= '9') {
                v = v * 10 + (uint64_t)(*p_++ - '0');
                if (v > (1ull << 62)) fail("dimension too large");
            }
            if (peek() == 'L') ++p_;
            if (s.size() >= EMBER_MAX_DIMS) raise(EMBER_ERR_FORMAT, "malformed .npy header: more than %d dimensions", EMBER_MAX_DIMS);
            s.push_back((int64_t)v);
            ws();
            if (peek() == ',') {
                ++p_;
                continue;
            }
            ws();
            if (peek() != close) fail("expected ',' or the end of 'shape'");
        }
    }
    const char* p_;
    const char* end_;
};

// '<f4' -> dtype and whether the data needs a byte swap.
ember_dtype_t parse_descr(const std::string& d, bool* swap) {
    if (d.size() < 3) raise(EMBER_ERR_FORMAT, "unsupported .npy dtype '%s'", d.c_str());
    char order = d[0];
    if (order != '<' && order != '>' && order != '|' && order != '=')
        raise(EMBER_ERR_FORMAT, "unsupported .npy dtype '%s' (no byte-order character)", d.c_str());
    std::string code = d.substr(1);
    static const std::pair<const char*, ember_dtype_t> table[] = {
        {"b1", EMBER_BOOL},   {"i1", EMBER_INT8},    {"i2", EMBER_INT16},   {"i4", EMBER_INT32},     {"i8", EMBER_INT64},
        {"u1", EMBER_UINT8},  {"u2", EMBER_UINT16},  {"u4", EMBER_UINT32},  {"u8", EMBER_UINT64},    {"f2", EMBER_FLOAT16},
        {"f4", EMBER_FLOAT32}, {"f8", EMBER_FLOAT64}, {"c8", EMBER_COMPLEX64}, {"c16", EMBER_COMPLEX128}};
    for (auto& [name, dt] : table) {
        if (code == name) {
            bool big = order == '>' || (order == '=' && !host_little_endian());
            *swap = dtype_size(dt) > 1 && big != !host_little_endian();
            return dt;
        }
    }
    raise(EMBER_ERR_FORMAT, "unsupported .npy dtype '%s'", d.c_str());
}

}  // namespace

std::string npy_encode_header(ember_dtype_t dtype, const ember_tensor* t) {
    const char* descr = npy_descr(dtype);
    if (!descr)
        raise(EMBER_ERR_UNSUPPORTED_DTYPE, "dtype %s has no NumPy equivalent (convert it to float32 first)", dtype_name(dtype));
    std::string shape = "(";
    for (int d = 0; d < t->ndim; ++d) {
        shape += std::to_string(t->shape[d]);
        if (t->ndim == 1 || d + 1 < t->ndim) shape += ",";
        if (d + 1 < t->ndim) shape += " ";
    }
    shape += ")";
    std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    size_t total = 10 + dict.size() + 1;
    size_t padded = (total + 63) / 64 * 64;
    dict.append(padded - total, ' ');
    dict.push_back('\n');
    std::string h("\x93NUMPY\x01\x00", 8);
    put16(h, (uint16_t)dict.size());  // at most 16 dims: always fits format 1.0
    return h + dict;
}

TRef npy_decode(ember_ctx* ctx, Bytes b, const char* what) {
    need(b, 0, 10, "the .npy preamble");
    if (std::memcmp(b.p, "\x93NUMPY", 6) != 0) raise(EMBER_ERR_FORMAT, "%s is not a .npy file (bad magic)", what);
    uint8_t major = b.p[6];
    uint64_t hlen, start;
    if (major == 1) {
        hlen = le16(b.p + 8);
        start = 10;
    } else if (major == 2 || major == 3) {
        need(b, 0, 12, "the .npy preamble");
        hlen = le32(b.p + 8);
        start = 12;
    } else {
        raise(EMBER_ERR_FORMAT, "%s has unsupported .npy format version %u.%u", what, major, b.p[7]);
    }
    if (hlen > b.n - start)
        raise(EMBER_ERR_FORMAT, "%s: the .npy header claims %llu bytes but only %llu follow", what, (unsigned long long)hlen,
              (unsigned long long)(b.n - start));
    NpyHeader h = DictParser((const char*)b.p + start, (size_t)hlen).parse();
    bool swap = false;
    ember_dtype_t dt = parse_descr(h.descr, &swap);
    uint64_t data_off = start + hlen;
    uint64_t avail = b.n - data_off;
    size_t item = dtype_size(dt);
    int64_t n = checked_numel(h.shape, item, avail, what);
    uint64_t nbytes = (uint64_t)n * item;
    if (nbytes != avail)
        raise(EMBER_ERR_FORMAT, "%s: %llu bytes of data follow the header but shape %s of %s needs %llu", what,
              (unsigned long long)avail, shape_str(h.shape).c_str(), dtype_name(dt), (unsigned long long)nbytes);
    const uint8_t* data = b.p + data_off;
    std::vector<uint8_t> tmp;
    if (swap) {
        tmp.assign(data, data + nbytes);
        byteswap(tmp.data(), tmp.size(), is_complex(dt) ? item / 2 : item);
        data = tmp.data();
    }
    if (!h.fortran || h.shape.size() < 2) return tensor_from_bytes(ctx, dt, h.shape, data);
    // Fortran order: the bytes are the C-order data of the reversed shape; transpose back.
    Shape rev(h.shape.rbegin(), h.shape.rend());
    TRef r = tensor_from_bytes(ctx, dt, rev, data);
    std::vector<int64_t> axes(rev.size());
    for (size_t i = 0; i < axes.size(); ++i) axes[i] = (int64_t)(axes.size() - 1 - i);
    TRef tr = op_permute(r.get(), axes.data(), (int)axes.size());
    return op_copy(ctx, tr.get());
}

// ---------------------------------------------------------------- .npz (zip)
namespace {

constexpr uint32_t SIG_LOCAL = 0x04034b50, SIG_CENTRAL = 0x02014b50, SIG_EOCD = 0x06054b50, SIG_EOCD64 = 0x06064b50,
                   SIG_LOC64 = 0x07064b50;

// deflate: each entry compressed with DEFLATE (method 8), as numpy.savez_compressed.
void save_npz(ember_ctx* ctx, Sink& sink, const ember_tensor_dict* dict, bool deflate) {
    struct Cd {
        std::string name;
        uint32_t crc;
        uint32_t size;  // uncompressed
        uint32_t offset;
        bool utf8;
        uint32_t stored_size;  // the bytes in the archive
    };
    std::vector<Cd> cds;
    for (auto& [name, t] : dict->entries) {
        std::string fname = name + ".npy";
        if (fname.size() > 0xffff) raise(EMBER_ERR_INVALID_ARGUMENT, "tensor name of %zu bytes is too long for a zip entry", name.size());
        std::string hdr = npy_encode_header(t->dtype, t.get());
        std::vector<uint8_t> data = tensor_bytes(t.get());
        uint64_t total = hdr.size() + data.size();
        if (total >= 0xffffffffull || sink.position() >= 0xffffffffull)
            raise(EMBER_ERR_UNSUPPORTED, "entry '%s' or the archive exceeds 4 GiB (zip64 output is not implemented)", name.c_str());
        uint32_t crc = crc32(hdr.data(), hdr.size());
        crc = crc32(data.data(), data.size(), crc);
        std::vector<uint8_t> packed;
        if (deflate) {
            data.insert(data.begin(), hdr.begin(), hdr.end());
            packed = deflate_raw(data.data(), data.size());
            if (packed.size() >= 0xffffffffull) raise(EMBER_ERR_UNSUPPORTED, "entry '%s' exceeds 4 GiB (zip64 output is not implemented)", name.c_str());
        }
        bool utf8 = std::any_of(fname.begin(), fname.end(), [](char c) { return (unsigned char)c >= 0x80; });
        Cd cd{fname, crc, (uint32_t)total, (uint32_t)sink.position(), utf8, deflate ? (uint32_t)packed.size() : (uint32_t)total};
        std::string lh;
        put32(lh, SIG_LOCAL);
        put16(lh, 20);                       // version needed
        put16(lh, utf8 ? 0x0800 : 0);        // flags
        put16(lh, deflate ? 8 : 0);          // method: deflated or stored
        put16(lh, 0);                        // time
        put16(lh, 0x21);                     // date 1980-01-01
        put32(lh, crc);
        put32(lh, cd.stored_size);
        put32(lh, cd.size);
        put16(lh, (uint16_t)fname.size());
        put16(lh, 0);
        lh += fname;
        sink.write(lh);
        if (deflate) {
            sink.write(packed.data(), packed.size());
        } else {
            sink.write(hdr);
            sink.write(data.data(), data.size());
        }
        cds.push_back(cd);
    }
    uint64_t cd_start = sink.position();
    std::string cdir;
    for (auto& cd : cds) {
        put32(cdir, SIG_CENTRAL);
        put16(cdir, 0x0314);  // made by: unix, 2.0
        put16(cdir, 20);
        put16(cdir, cd.utf8 ? 0x0800 : 0);
        put16(cdir, deflate ? 8 : 0);
        put16(cdir, 0);
        put16(cdir, 0x21);
        put32(cdir, cd.crc);
        put32(cdir, cd.stored_size);
        put32(cdir, cd.size);
        put16(cdir, (uint16_t)cd.name.size());
        put16(cdir, 0);  // extra
        put16(cdir, 0);  // comment
        put16(cdir, 0);  // disk
        put16(cdir, 0);  // internal attributes
        put32(cdir, 0644u << 16);
        put32(cdir, cd.offset);
        cdir += cd.name;
    }
    if (cds.size() >= 0xffff || cd_start + cdir.size() >= 0xffffffffull)
        raise(EMBER_ERR_UNSUPPORTED, "archive too large for a zip without zip64 records");
    sink.write(cdir);
    std::string e;
    put32(e, SIG_EOCD);
    put16(e, 0);
    put16(e, 0);
    put16(e, (uint16_t)cds.size());
    put16(e, (uint16_t)cds.size());
    put32(e, (uint32_t)cdir.size());
    put32(e, (uint32_t)cd_start);
    put16(e, 0);
    sink.write(e);
}

ember_tensor_dict* load_npz(ember_ctx* ctx, Bytes b) {
    if (b.n < 22) raise(EMBER_ERR_FORMAT, "not a zip archive: %zu bytes is shorter than an end-of-central-directory record", b.n);
    // The end record is in the last 22 + 65535 bytes; search backwards for its signature.
    size_t lo = b.n >= 22 + 0xffff ? b.n - 22 - 0xffff : 0;
    size_t eocd = SIZE_MAX;
    for (size_t i = b.n - 22 + 1; i-- > lo;) {
        if (le32(b.p + i) == SIG_EOCD && i + 22 + le16(b.p + i + 20) <= b.n) {
            eocd = i;
            break;
        }
    }
    if (eocd == SIZE_MAX) raise(EMBER_ERR_FORMAT, "not a zip archive: no end-of-central-directory record");
    const uint8_t* e = b.p + eocd;
    if (le16(e + 4) != 0 || le16(e + 6) != 0) raise(EMBER_ERR_FORMAT, "multi-disk zip archives are not supported");
    uint64_t count = le16(e + 10), cd_size = le32(e + 12), cd_off = le32(e + 16);
    uint64_t cd_limit = eocd;
    if (count == 0xffff || cd_size == 0xffffffffu || cd_off == 0xffffffffu) {
        if (eocd < 20 || le32(b.p + eocd - 20) != SIG_LOC64) raise(EMBER_ERR_FORMAT, "zip64 end record locator missing");
        uint64_t z = le64(b.p + eocd - 20 + 8);
        need(b, z, 56, "the zip64 end-of-central-directory record");
        if (z + 56 > eocd - 20) raise(EMBER_ERR_FORMAT, "zip64 end record overlaps its locator");
        if (le32(b.p + z) != SIG_EOCD64) raise(EMBER_ERR_FORMAT, "bad zip64 end-of-central-directory signature");
        count = le64(b.p + z + 32);
        cd_size = le64(b.p + z + 40);
        cd_off = le64(b.p + z + 48);
        cd_limit = z;
    }
    if (cd_off > cd_limit || cd_size > cd_limit - cd_off)
        raise(EMBER_ERR_FORMAT, "zip central directory (offset %llu, %llu bytes) lies outside the archive", (unsigned long long)cd_off,
              (unsigned long long)cd_size);
    if (count > cd_size / 46) raise(EMBER_ERR_FORMAT, "zip central directory claims %llu entries in %llu bytes", (unsigned long long)count,
                                    (unsigned long long)cd_size);
    struct Entry {
        std::string name;
        uint64_t start, data, end;  // local header, data begin, data end
        uint32_t crc;
        bool deflated;
        uint64_t size;  // uncompressed
    };
    std::vector<Entry> entries;
    Bytes cd{b.p + cd_off, (size_t)cd_size};
    uint64_t pos = 0;
    for (uint64_t k = 0; k < count; ++k) {
        need(cd, pos, 46, "a zip central directory entry");
        const uint8_t* c = cd.p + pos;
        if (le32(c) != SIG_CENTRAL) raise(EMBER_ERR_FORMAT, "bad zip central directory signature in entry %llu", (unsigned long long)k);
        uint16_t flags = le16(c + 8), method = le16(c + 10);
        uint32_t crc = le32(c + 16);
        uint64_t csize = le32(c + 20), usize = le32(c + 24);
        uint16_t nlen = le16(c + 28), xlen = le16(c + 30), clen = le16(c + 32);
        uint64_t loff = le32(c + 42);
        need(cd, pos + 46, (uint64_t)nlen + xlen + clen, "a zip entry name");
        std::string name((const char*)c + 46, nlen);
        // zip64 extra field: 64-bit values for the fields saturated at 0xffffffff.
        const uint8_t* x = c + 46 + nlen;
        for (uint32_t xp = 0; xp + 4 <= xlen;) {
            uint16_t id = le16(x + xp), sz = le16(x + xp + 2);
            if (xp + 4 + sz > xlen) raise(EMBER_ERR_FORMAT, "zip entry '%s' has a truncated extra field", name.c_str());
            if (id == 1) {
                uint32_t q = xp + 4, qe = xp + 4 + sz;
                auto take = [&](uint64_t& v) {
                    if (v != 0xffffffffu) return;
                    if (q + 8 > qe) raise(EMBER_ERR_FORMAT, "zip entry '%s' has a short zip64 extra field", name.c_str());
                    v = le64(x + q);
                    q += 8;
                };
                take(usize);
                take(csize);
                take(loff);
            }
            xp += 4 + sz;
        }
        if (flags & 1) raise(EMBER_ERR_FORMAT, "zip entry '%s' is encrypted", name.c_str());
        if (method != 0 && method != 8)
            raise(EMBER_ERR_FORMAT, "zip entry '%s' uses compression method %u; only stored (0) and deflated (8) entries are supported",
                  name.c_str(), method);
        if (method == 0 && csize != usize)
            raise(EMBER_ERR_FORMAT, "stored zip entry '%s' has different compressed and uncompressed sizes", name.c_str());
        need(b, loff, 30, "a zip local header");
        const uint8_t* l = b.p + loff;
        if (le32(l) != SIG_LOCAL) raise(EMBER_ERR_FORMAT, "bad zip local header signature for entry '%s'", name.c_str());
        uint64_t lnlen = le16(l + 26), lxlen = le16(l + 28);
        need(b, loff + 30, lnlen + lxlen, "a zip local header name");
        if (lnlen != nlen || std::memcmp(l + 30, name.data(), nlen) != 0)
            raise(EMBER_ERR_FORMAT, "zip local header name differs from the central directory for entry '%s'", name.c_str());
        uint64_t data = loff + 30 + lnlen + lxlen;
        need(b, data, csize, "zip entry data");
        if (data + csize > cd_off) raise(EMBER_ERR_FORMAT, "zip entry '%s' overlaps the central directory", name.c_str());
        entries.push_back({name, loff, data, data + csize, crc, method == 8, usize});
        pos += 46 + (uint64_t)nlen + xlen + clen;
    }
    // Entries may not share bytes: the total work and memory stay bounded by the file size.
    std::vector<const Entry*> order;
    for (auto& en : entries) order.push_back(&en);
    std::sort(order.begin(), order.end(), [](const Entry* a, const Entry* c) { return a->start < c->start; });
    for (size_t i = 1; i < order.size(); ++i)
        if (order[i]->start < order[i - 1]->end)
            raise(EMBER_ERR_FORMAT, "zip entries '%s' and '%s' overlap", order[i - 1]->name.c_str(), order[i]->name.c_str());
    std::unique_ptr<ember_tensor_dict> d(new ember_tensor_dict());
    for (auto& en : entries) {
        std::string what = "entry '" + en.name + "'";
        Bytes raw{b.p + en.data, (size_t)(en.end - en.data)};
        std::vector<uint8_t> inflated;  // numpy.savez_compressed entries, decoded whole
        if (en.deflated) {
            inflated = inflate_raw(raw, en.size, what.c_str());
            raw = Bytes{inflated.data(), inflated.size()};
        }
        if (crc32(raw.p, raw.n) != en.crc) raise(EMBER_ERR_FORMAT, "CRC-32 mismatch in zip entry '%s' (corrupted archive)", en.name.c_str());
        std::string key = en.name;
        if (key.size() >= 4 && key.compare(key.size() - 4, 4, ".npy") == 0) key.resize(key.size() - 4);
        for (auto& [k, v] : d->entries)
            if (k == key) raise(EMBER_ERR_FORMAT, "zip archive holds '%s' twice", key.c_str());
        TRef t = npy_decode(ctx, raw, what.c_str());
        d->entries.emplace_back(key, std::move(t));
    }
    return d.release();
}

ember_tensor_dict* dict_with(const char* name, const ember_tensor* t) {
    std::unique_ptr<ember_tensor_dict> d(new ember_tensor_dict());
    d->entries.emplace_back(name, TRef::borrow(t));
    return d.release();
}

bool ends_with(const char* s, const char* suffix) {
    size_t a = std::strlen(s), b = std::strlen(suffix);
    return a >= b && std::strcmp(s + a - b, suffix) == 0;
}

}  // namespace

// Declared for ember_save / ember_load (io_safetensors.cpp).
void save_safetensors(ember_ctx* ctx, Sink& sink, const ember_tensor_dict* dict);
ember_tensor_dict* load_safetensors(ember_ctx* ctx, Bytes b);

}  // namespace ember::io

using namespace ember;
using namespace ember::io;

static Bytes buffer_arg(const void* data, size_t size) {
    if (!data && size) raise(EMBER_ERR_INVALID_ARGUMENT, "argument 'data' is NULL but size is %zu", size);
    return Bytes{(const uint8_t*)data, size};
}

// The .npz savers, plain (numpy.savez) or deflated (numpy.savez_compressed).
static void save_npz_file(ember_ctx* ctx, const char* path, const ember_tensor_dict* dict, bool deflate) {
    check_ctx(ctx);
    require_arg(path, "path");
    check_dict(dict);
    Sink s(path);
    save_npz(ctx, s, dict, deflate);
    s.commit();
}
static void save_npz_buffer(ember_ctx* ctx, const ember_tensor_dict* dict, void** data, size_t* size, bool deflate) {
    check_ctx(ctx);
    check_dict(dict);
    check_out_buffer(data, size);
    Sink s(nullptr);
    save_npz(ctx, s, dict, deflate);
    s.release_to(data, size);
}

extern "C" {

ENTRY(ember_tensor_dict_create, (ember_tensor_dict_t * *out), {
    require_arg(out, "out");
    *out = new ember_tensor_dict();
})
EMBER_API void ember_tensor_dict_release(ember_tensor_dict_t* dict) { delete dict; }
ENTRY(ember_tensor_dict_set, (ember_tensor_dict_t * dict, const char* name, ember_tensor_t* tensor), {
    check_dict(dict);
    require_arg(name, "name");
    require_arg(tensor, "tensor");
    for (auto& [k, v] : dict->entries) {
        if (k == name) {
            v = TRef::borrow(tensor);
            return;
        }
    }
    dict->entries.emplace_back(name, TRef::borrow(tensor));
})
ENTRY(ember_tensor_dict_size, (const ember_tensor_dict_t* dict, int64_t* count), {
    check_dict(dict);
    require_arg(count, "count");
    *count = (int64_t)dict->entries.size();
})
ENTRY(ember_tensor_dict_entry, (const ember_tensor_dict_t* dict, int64_t index, const char** name, ember_tensor_t** tensor), {
    check_dict(dict);
    if (index < 0 || index >= (int64_t)dict->entries.size())
        raise(EMBER_ERR_INDEX, "index %lld out of range for a dict of %zu tensors", (long long)index, dict->entries.size());
    if (name) *name = dict->entries[(size_t)index].first.c_str();
    if (tensor) *tensor = dict->entries[(size_t)index].second.get();
})
ENTRY(ember_tensor_dict_find, (const ember_tensor_dict_t* dict, const char* name, ember_tensor_t** tensor), {
    check_dict(dict);
    require_arg(name, "name");
    require_arg(tensor, "tensor");
    for (auto& [k, v] : dict->entries) {
        if (k == name) {
            *tensor = v.get();
            return;
        }
    }
    raise(EMBER_ERR_INDEX, "no tensor named '%s'", name);
})
ENTRY(ember_tensor_dict_set_metadata, (ember_tensor_dict_t * dict, const char* key, const char* value), {
    check_dict(dict);
    require_arg(key, "key");
    require_arg(value, "value");
    for (auto& [k, v] : dict->metadata) {
        if (k == key) {
            v = value;
            return;
        }
    }
    dict->metadata.emplace_back(key, value);
})
ENTRY(ember_tensor_dict_metadata_count, (const ember_tensor_dict_t* dict, int64_t* count), {
    check_dict(dict);
    require_arg(count, "count");
    *count = (int64_t)dict->metadata.size();
})
ENTRY(ember_tensor_dict_metadata_entry, (const ember_tensor_dict_t* dict, int64_t index, const char** key, const char** value), {
    check_dict(dict);
    if (index < 0 || index >= (int64_t)dict->metadata.size())
        raise(EMBER_ERR_INDEX, "index %lld out of range for %zu metadata entries", (long long)index, dict->metadata.size());
    if (key) *key = dict->metadata[(size_t)index].first.c_str();
    if (value) *value = dict->metadata[(size_t)index].second.c_str();
})
ENTRY(ember_tensor_dict_get_metadata, (const ember_tensor_dict_t* dict, const char* key, const char** value), {
    check_dict(dict);
    require_arg(key, "key");
    require_arg(value, "value");
    for (auto& [k, v] : dict->metadata) {
        if (k == key) {
            *value = v.c_str();
            return;
        }
    }
    raise(EMBER_ERR_INDEX, "no metadata key '%s'", key);
})
EMBER_API void ember_io_free(void* data) { std::free(data); }

ENTRY(ember_save_npy, (ember_ctx_t * ctx, const char* path, const ember_tensor_t* tensor), {
    check_ctx(ctx);
    require_arg(path, "path");
    require_arg(tensor, "tensor");
    std::string h = npy_encode_header(tensor->dtype, tensor);
    std::vector<uint8_t> data = tensor_bytes(tensor);
    Sink s(path);
    s.write(h);
    s.write(data.data(), data.size());
    s.commit();
})
ENTRY(ember_save_npy_buffer, (ember_ctx_t * ctx, const ember_tensor_t* tensor, void** data, size_t* size), {
    check_ctx(ctx);
    require_arg(tensor, "tensor");
    check_out_buffer(data, size);
    std::string h = npy_encode_header(tensor->dtype, tensor);
    std::vector<uint8_t> bytes = tensor_bytes(tensor);
    Sink s(nullptr);
    s.write(h);
    s.write(bytes.data(), bytes.size());
    s.release_to(data, size);
})
ENTRY(ember_load_npy, (ember_ctx_t * ctx, const char* path, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(path, "path");
    require_arg(out, "out");
    MappedFile f(path);
    std::string what = std::string("'") + path + "'";
    *out = npy_decode(ctx, f.bytes(), what.c_str()).release();
})
ENTRY(ember_load_npy_buffer, (ember_ctx_t * ctx, const void* data, size_t size, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    *out = npy_decode(ctx, buffer_arg(data, size), "the buffer").release();
})
ENTRY(ember_save_npz, (ember_ctx_t * ctx, const char* path, const ember_tensor_dict_t* dict), { save_npz_file(ctx, path, dict, false); })
ENTRY(ember_save_npz_buffer, (ember_ctx_t * ctx, const ember_tensor_dict_t* dict, void** data, size_t* size),
      { save_npz_buffer(ctx, dict, data, size, false); })
ENTRY(ember_save_npz_compressed, (ember_ctx_t * ctx, const char* path, const ember_tensor_dict_t* dict),
      { save_npz_file(ctx, path, dict, true); })
ENTRY(ember_save_npz_compressed_buffer, (ember_ctx_t * ctx, const ember_tensor_dict_t* dict, void** data, size_t* size),
      { save_npz_buffer(ctx, dict, data, size, true); })
ENTRY(ember_load_npz, (ember_ctx_t * ctx, const char* path, ember_tensor_dict_t** out), {
    check_ctx(ctx);
    require_arg(path, "path");
    require_arg(out, "out");
    MappedFile f(path);
    *out = load_npz(ctx, f.bytes());
})
ENTRY(ember_load_npz_buffer, (ember_ctx_t * ctx, const void* data, size_t size, ember_tensor_dict_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    *out = load_npz(ctx, buffer_arg(data, size));
})

ENTRY(ember_save, (ember_ctx_t * ctx, const char* path, const ember_tensor_t* tensor), {
    check_ctx(ctx);
    require_arg(path, "path");
    require_arg(tensor, "tensor");
    if (ends_with(path, ".npy")) {
        std::string h = npy_encode_header(tensor->dtype, tensor);
        std::vector<uint8_t> data = tensor_bytes(tensor);
        Sink s(path);
        s.write(h);
        s.write(data.data(), data.size());
        s.commit();
    } else if (ends_with(path, ".safetensors")) {
        std::unique_ptr<ember_tensor_dict> d(dict_with("tensor", tensor));
        Sink s(path);
        save_safetensors(ctx, s, d.get());
        s.commit();
    } else {
        raise(EMBER_ERR_INVALID_ARGUMENT, "cannot tell the format of '%s' (use a .npy or .safetensors extension)", path);
    }
})
ENTRY(ember_load, (ember_ctx_t * ctx, const char* path, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(path, "path");
    require_arg(out, "out");
    if (ends_with(path, ".npy")) {
        MappedFile f(path);
        std::string what = std::string("'") + path + "'";
        *out = npy_decode(ctx, f.bytes(), what.c_str()).release();
    } else if (ends_with(path, ".safetensors")) {
        MappedFile f(path);
        std::unique_ptr<ember_tensor_dict> d(load_safetensors(ctx, f.bytes()));
        ember_tensor* pick = nullptr;
        for (auto& [k, v] : d->entries)
            if (k == "tensor") pick = v.get();
        if (!pick && d->entries.size() == 1) pick = d->entries[0].second.get();
        if (!pick) raise(EMBER_ERR_FORMAT, "'%s' holds %zu tensors and none is named 'tensor'; use ember_load_safetensors", path, d->entries.size());
        *out = TRef::borrow(pick).release();
    } else {
        raise(EMBER_ERR_INVALID_ARGUMENT, "cannot tell the format of '%s' (use a .npy or .safetensors extension)", path);
    }
})

}  // extern "C"
