// safetensors: 8-byte little-endian header length, a JSON header (cJSON), then the raw
// little-endian tensor bytes. Spec: https://github.com/huggingface/safetensors
#include <cjson/cJSON.h>

#include <algorithm>
#include <memory>
#include <set>

#include "io_common.hpp"

namespace ember::io {

namespace {

// Upper bound on the JSON header, as in the reference implementation (100 MB).
constexpr uint64_t MAX_HEADER = 100u * 1000u * 1000u;

struct StDtype {
    const char* name;
    ember_dtype_t dtype;
};
const StDtype st_dtypes[] = {{"BOOL", EMBER_BOOL},    {"I8", EMBER_INT8},      {"I16", EMBER_INT16},   {"I32", EMBER_INT32},
                             {"I64", EMBER_INT64},    {"U8", EMBER_UINT8},     {"U16", EMBER_UINT16},  {"U32", EMBER_UINT32},
                             {"U64", EMBER_UINT64},   {"F16", EMBER_FLOAT16},  {"BF16", EMBER_BFLOAT16}, {"F32", EMBER_FLOAT32},
                             {"F64", EMBER_FLOAT64}};

const char* st_name(ember_dtype_t d) {
    for (auto& e : st_dtypes)
        if (e.dtype == d) return e.name;
    return nullptr;
}

struct JsonDel {
    void operator()(cJSON* j) const { cJSON_Delete(j); }
};
using Json = std::unique_ptr<cJSON, JsonDel>;

cJSON* add_string(cJSON* obj, const std::string& key, const std::string& value) {
    cJSON* s = cJSON_CreateString(value.c_str());
    if (!s || !cJSON_AddItemToObject(obj, key.c_str(), s)) {
        cJSON_Delete(s);
        throw std::bad_alloc();
    }
    return s;
}

// A JSON number that is a non-negative integer the size of a file offset.
uint64_t as_uint(const cJSON* j, const std::string& tensor, const char* field) {
    if (!cJSON_IsNumber(j)) raise(EMBER_ERR_FORMAT, "tensor '%s': %s must hold integers", tensor.c_str(), field);
    double v = j->valuedouble;
    if (!(v >= 0) || v > 9007199254740992.0 || v != (double)(uint64_t)v)
        raise(EMBER_ERR_FORMAT, "tensor '%s': %s holds %g, not a non-negative integer", tensor.c_str(), field, v);
    return (uint64_t)v;
}

}  // namespace

void save_safetensors(ember_ctx* ctx, Sink& sink, const ember_tensor_dict* dict) {
    Json root(cJSON_CreateObject());
    if (!root) throw std::bad_alloc();
    // Metadata: the caller's strings, then Ember's provenance keys.
    std::vector<std::pair<std::string, std::string>> meta;
    for (auto& kv : dict->metadata)
        if (kv.first.compare(0, 6, "ember.") != 0) meta.push_back(kv);
    meta.emplace_back("ember.version", EMBER_VERSION_STRING);
    std::string backends;
    for (auto& [name, t] : dict->entries) {
        std::string b = t->backend->name + ":" + std::to_string(t->device);
        if (("," + backends + ",").find("," + b + ",") == std::string::npos) backends += (backends.empty() ? "" : ",") + b;
    }
    if (backends.empty()) backends = ctx->backend->name + ":" + std::to_string(ctx->device);
    meta.emplace_back("ember.backend", backends);
    for (auto& [name, t] : dict->entries) meta.emplace_back("ember.dtype." + name, dtype_name(t->dtype));
    cJSON* m = cJSON_CreateObject();
    if (!m || !cJSON_AddItemToObject(root.get(), "__metadata__", m)) {
        cJSON_Delete(m);
        throw std::bad_alloc();
    }
    for (auto& [k, v] : meta) add_string(m, k, v);

    uint64_t offset = 0;
    for (auto& [name, t] : dict->entries) {
        if (name == "__metadata__") raise(EMBER_ERR_INVALID_ARGUMENT, "'__metadata__' is reserved and cannot name a tensor");
        ember_dtype_t stored = is_complex(t->dtype) ? real_dtype_of(t->dtype) : t->dtype;
        std::string shape = "[";
        for (int d = 0; d < t->ndim; ++d) shape += (d ? "," : "") + std::to_string(t->shape[d]);
        if (is_complex(t->dtype)) shape += std::string(t->ndim ? "," : "") + "2";
        shape += "]";
        uint64_t nbytes = (uint64_t)t->size * dtype_size(t->dtype);
        std::string offsets = "[" + std::to_string(offset) + "," + std::to_string(offset + nbytes) + "]";
        offset += nbytes;
        cJSON* e = cJSON_CreateObject();
        if (!e || !cJSON_AddItemToObject(root.get(), name.c_str(), e)) {
            cJSON_Delete(e);
            throw std::bad_alloc();
        }
        add_string(e, "dtype", st_name(stored));
        if (!cJSON_AddRawToObject(e, "shape", shape.c_str()) || !cJSON_AddRawToObject(e, "data_offsets", offsets.c_str()))
            throw std::bad_alloc();
    }
    std::unique_ptr<char, void (*)(void*)> text(cJSON_PrintUnformatted(root.get()), cJSON_free);
    if (!text) throw std::bad_alloc();
    std::string header(text.get());
    header.append((8 - header.size() % 8) % 8, ' ');  // the data section starts 8-aligned
    std::string len;
    put64(len, header.size());
    sink.write(len);
    sink.write(header);
    for (auto& [name, t] : dict->entries) {
        std::vector<uint8_t> data = tensor_bytes(t.get());
        sink.write(data.data(), data.size());
    }
}

ember_tensor_dict* load_safetensors(ember_ctx* ctx, Bytes b) {
    if (b.n < 8) raise(EMBER_ERR_FORMAT, "not a safetensors file: %zu bytes is shorter than the 8-byte header length", b.n);
    uint64_t hlen = le64(b.p);
    if (hlen > b.n - 8)
        raise(EMBER_ERR_FORMAT, "safetensors header claims %llu bytes but the file has only %zu after the length", (unsigned long long)hlen,
              b.n - 8);
    if (hlen > MAX_HEADER) raise(EMBER_ERR_FORMAT, "safetensors header of %llu bytes exceeds the 100 MB limit", (unsigned long long)hlen);
    if (hlen < 2) raise(EMBER_ERR_FORMAT, "safetensors header of %llu bytes cannot hold a JSON object", (unsigned long long)hlen);
    // A NUL-terminated private copy: the parser can never run past it.
    std::string text((const char*)b.p + 8, (size_t)hlen);
    if (text.find('\0') != std::string::npos) raise(EMBER_ERR_FORMAT, "safetensors header contains a NUL byte");
    const char* end = nullptr;
    Json root(cJSON_ParseWithLengthOpts(text.c_str(), text.size(), &end, 0));
    if (!root) {
        size_t at = end ? (size_t)(end - text.c_str()) : 0;
        const char* err = cJSON_GetErrorPtr();
        if (err && err >= text.c_str() && err <= text.c_str() + text.size()) at = (size_t)(err - text.c_str());
        raise(EMBER_ERR_FORMAT, "safetensors header is not valid JSON (error near byte %zu)", at);
    }
    for (const char* q = end; q && q < text.c_str() + text.size(); ++q)
        if (*q != ' ' && *q != '\n' && *q != '\t' && *q != '\r') raise(EMBER_ERR_FORMAT, "safetensors header has text after the JSON object");
    if (!cJSON_IsObject(root.get())) raise(EMBER_ERR_FORMAT, "safetensors header is not a JSON object");

    const uint8_t* data = b.p + 8 + hlen;
    uint64_t dsize = b.n - 8 - hlen;
    std::unique_ptr<ember_tensor_dict> d(new ember_tensor_dict());
    struct Item {
        std::string name;
        ember_dtype_t dtype;
        Shape shape;
        uint64_t begin, end;
    };
    std::vector<Item> items;
    std::set<std::string> seen;
    bool have_meta = false;
    for (cJSON* it = root->child; it; it = it->next) {
        std::string name = it->string ? it->string : "";
        if (!seen.insert(name).second) raise(EMBER_ERR_FORMAT, "safetensors header names '%s' twice", name.c_str());
        if (name == "__metadata__") {
            have_meta = true;
            if (!cJSON_IsObject(it)) raise(EMBER_ERR_FORMAT, "safetensors __metadata__ is not an object");
            for (cJSON* m = it->child; m; m = m->next) {
                if (!cJSON_IsString(m) || !m->valuestring) raise(EMBER_ERR_FORMAT, "safetensors __metadata__ value of '%s' is not a string", m->string ? m->string : "");
                d->metadata.emplace_back(m->string ? m->string : "", m->valuestring);
            }
            continue;
        }
        if (!cJSON_IsObject(it)) raise(EMBER_ERR_FORMAT, "safetensors entry '%s' is not an object", name.c_str());
        const cJSON* jd = cJSON_GetObjectItemCaseSensitive(it, "dtype");
        const cJSON* js = cJSON_GetObjectItemCaseSensitive(it, "shape");
        const cJSON* jo = cJSON_GetObjectItemCaseSensitive(it, "data_offsets");
        if (!cJSON_IsString(jd) || !jd->valuestring) raise(EMBER_ERR_FORMAT, "tensor '%s' has no dtype string", name.c_str());
        if (!cJSON_IsArray(js)) raise(EMBER_ERR_FORMAT, "tensor '%s' has no shape array", name.c_str());
        if (!cJSON_IsArray(jo) || cJSON_GetArraySize(jo) != 2) raise(EMBER_ERR_FORMAT, "tensor '%s' needs data_offsets [begin, end]", name.c_str());
        Item item{name, EMBER_BOOL, {}, 0, 0};
        bool known = false;
        for (auto& e : st_dtypes) {
            if (std::strcmp(e.name, jd->valuestring) == 0) {
                item.dtype = e.dtype;
                known = true;
            }
        }
        if (!known) raise(EMBER_ERR_FORMAT, "tensor '%s' has unsupported dtype '%.32s'", name.c_str(), jd->valuestring);
        if (cJSON_GetArraySize(js) > EMBER_MAX_DIMS)
            raise(EMBER_ERR_FORMAT, "tensor '%s' has %d dimensions; Ember supports at most %d", name.c_str(), cJSON_GetArraySize(js), EMBER_MAX_DIMS);
        for (const cJSON* s = js->child; s; s = s->next) {
            uint64_t v = as_uint(s, name, "shape");
            item.shape.push_back((int64_t)v);
        }
        item.begin = as_uint(jo->child, name, "data_offsets");
        item.end = as_uint(jo->child->next, name, "data_offsets");
        if (item.end < item.begin || item.end > dsize)
            raise(EMBER_ERR_FORMAT, "tensor '%s' has data_offsets [%llu, %llu] outside the %llu-byte data section", name.c_str(),
                  (unsigned long long)item.begin, (unsigned long long)item.end, (unsigned long long)dsize);
        std::string what = "tensor '" + name + "'";
        int64_t n = checked_numel(item.shape, dtype_size(item.dtype), dsize, what.c_str());
        if ((uint64_t)n * dtype_size(item.dtype) != item.end - item.begin)
            raise(EMBER_ERR_FORMAT, "tensor '%s' of shape %s and dtype %s needs %llu bytes but its data_offsets span %llu", name.c_str(),
                  shape_str(item.shape).c_str(), jd->valuestring, (unsigned long long)((uint64_t)n * dtype_size(item.dtype)),
                  (unsigned long long)(item.end - item.begin));
        items.push_back(std::move(item));
    }
    (void)have_meta;
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& c) { return a.begin < c.begin; });
    for (size_t i = 1; i < items.size(); ++i)
        if (items[i].begin < items[i - 1].end)
            raise(EMBER_ERR_FORMAT, "tensors '%s' and '%s' overlap in the data section", items[i - 1].name.c_str(), items[i].name.c_str());
    for (auto& item : items) {
        // Complex tensors written by Ember: stored as real pairs, restored from the metadata.
        ember_dtype_t dt = item.dtype;
        Shape shape = item.shape;
        std::string key = "ember.dtype." + item.name;
        for (auto& [k, v] : d->metadata) {
            if (k != key) continue;
            ember_dtype_t want;
            if (ember_dtype_from_name(v.c_str(), &want) == EMBER_OK && is_complex(want) && real_dtype_of(want) == dt && !shape.empty() &&
                shape.back() == 2) {
                dt = want;
                shape.pop_back();
            }
        }
        const uint8_t* p = data + item.begin;
        std::vector<uint8_t> tmp;
        if (!host_little_endian()) {
            tmp.assign(p, p + (item.end - item.begin));
            byteswap(tmp.data(), tmp.size(), dtype_size(item.dtype));
            p = tmp.data();
        }
        d->entries.emplace_back(item.name, tensor_from_bytes(ctx, dt, shape, p));
    }
    return d.release();
}

}  // namespace ember::io

using namespace ember;
using namespace ember::io;

extern "C" {

ENTRY(ember_save_safetensors, (ember_ctx_t * ctx, const char* path, const ember_tensor_dict_t* dict), {
    check_ctx(ctx);
    require_arg(path, "path");
    check_dict(dict);
    Sink s(path);
    save_safetensors(ctx, s, dict);
    s.commit();
})
ENTRY(ember_save_safetensors_buffer, (ember_ctx_t * ctx, const ember_tensor_dict_t* dict, void** data, size_t* size), {
    check_ctx(ctx);
    check_dict(dict);
    check_out_buffer(data, size);
    Sink s(nullptr);
    save_safetensors(ctx, s, dict);
    s.release_to(data, size);
})
ENTRY(ember_load_safetensors, (ember_ctx_t * ctx, const char* path, ember_tensor_dict_t** out), {
    check_ctx(ctx);
    require_arg(path, "path");
    require_arg(out, "out");
    MappedFile f(path);
    *out = load_safetensors(ctx, f.bytes());
})
ENTRY(ember_load_safetensors_buffer, (ember_ctx_t * ctx, const void* data, size_t size, ember_tensor_dict_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    if (!data && size) raise(EMBER_ERR_INVALID_ARGUMENT, "argument 'data' is NULL but size is %zu", size);
    *out = load_safetensors(ctx, Bytes{(const uint8_t*)data, size});
})

}  // extern "C"
