/* Ember tensor files (safetensors, .npy, .npz). Included by ember.h; conventions as in ember.h.
 *
 * Every loader checks the file against its own size before it allocates or reads: a
 * truncated, corrupted or hostile file gives EMBER_ERR_FORMAT (malformed contents) or
 * EMBER_ERR_IO (cannot open / read / write) with a message naming the function and the
 * cause, never an out-of-bounds read. Loaded tensors are created on the context's active
 * backend and device, whatever backend wrote the file. docs/io.md has the details.
 *
 * The *_buffer loaders read from caller memory (data may be NULL when size is 0) and
 * never keep a pointer to it. The *_buffer savers return a buffer allocated by Ember in
 * *data / *size; release it with ember_io_free.
 */
#ifndef EMBER_EMBER_IO_H
#define EMBER_EMBER_IO_H

/* ---------------------------------------------------------------- tensor dictionaries */
/* An ordered set of named tensors plus string metadata (safetensors' __metadata__).
   Names are unique; setting an existing name replaces its tensor in place. */
typedef struct ember_tensor_dict ember_tensor_dict_t;

EMBER_API ember_status_t ember_tensor_dict_create(ember_tensor_dict_t** out);
EMBER_API void ember_tensor_dict_release(ember_tensor_dict_t* dict);
/* Adds (or replaces) name -> tensor; the dict takes its own reference to tensor. */
EMBER_API ember_status_t ember_tensor_dict_set(ember_tensor_dict_t* dict, const char* name, ember_tensor_t* tensor);
EMBER_API ember_status_t ember_tensor_dict_size(const ember_tensor_dict_t* dict, int64_t* count);
/* The index-th entry in insertion (file) order; name and tensor are borrowed (valid while
   the dict lives and the entry is not replaced). Either out-pointer may be NULL. */
EMBER_API ember_status_t ember_tensor_dict_entry(const ember_tensor_dict_t* dict, int64_t index, const char** name,
                                                 ember_tensor_t** tensor);
/* Borrowed tensor of that name; EMBER_ERR_INDEX when absent. */
EMBER_API ember_status_t ember_tensor_dict_find(const ember_tensor_dict_t* dict, const char* name, ember_tensor_t** tensor);
/* String metadata (written to / read from safetensors' __metadata__; keys starting with
   "ember." are written by Ember itself: ember.version, ember.backend, ember.dtype.<name>). */
EMBER_API ember_status_t ember_tensor_dict_set_metadata(ember_tensor_dict_t* dict, const char* key, const char* value);
EMBER_API ember_status_t ember_tensor_dict_metadata_count(const ember_tensor_dict_t* dict, int64_t* count);
/* The index-th key/value pair (borrowed); either out-pointer may be NULL. */
EMBER_API ember_status_t ember_tensor_dict_metadata_entry(const ember_tensor_dict_t* dict, int64_t index, const char** key,
                                                          const char** value);
/* Borrowed value for key; EMBER_ERR_INDEX when absent. */
EMBER_API ember_status_t ember_tensor_dict_get_metadata(const ember_tensor_dict_t* dict, const char* key, const char** value);

/* Frees a buffer returned by a *_buffer saver. NULL is a no-op. */
EMBER_API void ember_io_free(void* data);

/* ---------------------------------------------------------------- safetensors */
/* Every dtype is stored: bool BOOL, int8..uint64 I8..U64, float16 F16, bfloat16 BF16,
   float32 F32, float64 F64. complex64/complex128 are stored as F32/F64 with a trailing
   axis of 2 (real, imag: torch.view_as_real layout) and restored from the
   "ember.dtype.<name>" metadata on load. The metadata also records ember.version and
   ember.backend (backend:device of origin). Non-contiguous tensors are written in C order. */
EMBER_API ember_status_t ember_save_safetensors(ember_ctx_t* ctx, const char* path, const ember_tensor_dict_t* dict);
EMBER_API ember_status_t ember_save_safetensors_buffer(ember_ctx_t* ctx, const ember_tensor_dict_t* dict, void** data, size_t* size);
/* Loads every tensor (in data-offset order) and the __metadata__ strings. Rejects unknown
   dtype strings, shapes whose byte size differs from their offsets, offsets outside the
   data section, overlapping tensors, duplicate names and headers longer than the file. */
EMBER_API ember_status_t ember_load_safetensors(ember_ctx_t* ctx, const char* path, ember_tensor_dict_t** out);
EMBER_API ember_status_t ember_load_safetensors_buffer(ember_ctx_t* ctx, const void* data, size_t size, ember_tensor_dict_t** out);

/* ---------------------------------------------------------------- NumPy .npy / .npz */
/* .npy format 1.0 (2.0 when the header needs it), little-endian, C order. bfloat16 has no
   NumPy dtype and gives EMBER_ERR_UNSUPPORTED_DTYPE. */
EMBER_API ember_status_t ember_save_npy(ember_ctx_t* ctx, const char* path, const ember_tensor_t* tensor);
EMBER_API ember_status_t ember_save_npy_buffer(ember_ctx_t* ctx, const ember_tensor_t* tensor, void** data, size_t* size);
/* Reads format 1.x/2.x/3.x, little- or big-endian ('<', '>', '|') bool, int, uint, float16/32/64
   and complex64/128 descrs, C or Fortran order. */
EMBER_API ember_status_t ember_load_npy(ember_ctx_t* ctx, const char* path, ember_tensor_t** out);
EMBER_API ember_status_t ember_load_npy_buffer(ember_ctx_t* ctx, const void* data, size_t size, ember_tensor_t** out);
/* .npz: a zip archive of "<name>.npy" entries, written uncompressed ("stored") with CRC-32,
   like numpy.savez. Loading accepts stored and deflated entries (numpy.savez and
   numpy.savez_compressed output), checks every CRC-32 and supports zip64 records.
   Loaded names have the ".npy" suffix removed, as numpy.load does. */
EMBER_API ember_status_t ember_save_npz(ember_ctx_t* ctx, const char* path, const ember_tensor_dict_t* dict);
EMBER_API ember_status_t ember_save_npz_buffer(ember_ctx_t* ctx, const ember_tensor_dict_t* dict, void** data, size_t* size);
EMBER_API ember_status_t ember_load_npz(ember_ctx_t* ctx, const char* path, ember_tensor_dict_t** out);
EMBER_API ember_status_t ember_load_npz_buffer(ember_ctx_t* ctx, const void* data, size_t size, ember_tensor_dict_t** out);
/* Like ember_save_npz, with every entry compressed by DEFLATE (zip method 8), as
   numpy.savez_compressed: numpy.load and ember_load_npz read it. */
EMBER_API ember_status_t ember_save_npz_compressed(ember_ctx_t* ctx, const char* path, const ember_tensor_dict_t* dict);
EMBER_API ember_status_t ember_save_npz_compressed_buffer(ember_ctx_t* ctx, const ember_tensor_dict_t* dict, void** data, size_t* size);

/* ---------------------------------------------------------------- one tensor, format by extension */
/* ".npy": as ember_save_npy; ".safetensors": a file holding one tensor named "tensor".
   Any other extension gives EMBER_ERR_INVALID_ARGUMENT. */
EMBER_API ember_status_t ember_save(ember_ctx_t* ctx, const char* path, const ember_tensor_t* tensor);
/* ".npy", or ".safetensors" holding exactly one tensor (or one named "tensor"). */
EMBER_API ember_status_t ember_load(ember_ctx_t* ctx, const char* path, ember_tensor_t** out);

#endif
