/*
 * The Lua 5.4 interface of Ember: the shared bindings/ember.i plus what only Lua needs.
 *
 *   swig -lua -DSWIGWORDSIZE64 -I<prefix>/include -o ember_lua_wrap.c bindings/lua/ember_lua.i
 *
 * gives the C module `ember_c` (luaopen_ember_c); the pure-Lua layer ember.lua builds the
 * idiomatic API (metatables, operators, conversion from tables, submodules) on top of it.
 *
 * Order matters: typemaps declared here, before %include "../ember.i", apply to the C
 * headers that ember.i %includes at its end, unless ember.i declares the same typemap
 * (then its own wins). Everything here is for typemaps ember.i does not give Lua.
 * The %{ %} blocks after the %include land after ember.i's in the wrapper's header
 * section, so they can redefine its Lua error macro (EMBER_SWIG_RAISE) for all wrappers.
 */

/* ---------------------------------------------------------------- int64 scalars in
   SWIG's default reads every integer through lua_tonumber (a double): INT64_MAX would
   round to 2^63 and overflow the cast. Lua integers go through unchanged; floats with an
   integral value are accepted; anything else is an argument error. */
%typemap(in, checkfn="lua_isnumber") int64_t, uint64_t {
    int isint_ = 0;
    lua_Integer v_ = lua_tointegerx(L, $input, &isint_);
    if (!isint_) {
        lua_pushfstring(L, "$symname: argument $argnum: expected an integer, got %s",
                        lua_type(L, $input) == LUA_TNUMBER ? lua_tostring(L, $input) : luaL_typename(L, $input));
        SWIG_fail;
    }
    $1 = ($1_ltype)v_;
}
%typemap(typecheck, precedence=SWIG_TYPECHECK_INT64) int64_t, uint64_t { $1 = lua_isinteger(L, $input); }
%typemap(out) size_t { lua_pushinteger(L, (lua_Integer)$1); SWIG_arg++; }

/* ---------------------------------------------------------------- tensors out
   Every `ember_tensor_t**` of the C API is an output (split and meshgrid, whose outputs
   are arrays, are ignored by ember.i and wrapped by hand below). ember.i gives Lua only
   `ember_tensor_t** out`; this generic form covers the other names (values, indices,
   inverse, counts, edges, sum_of_weights, and linalg's q, r, u, s, vh, w, v, x, lu, ...).
   A NULL result (an optional output left unset) comes back as nil. */
%typemap(in, numinputs=0) ember_tensor_t** (ember_tensor_t* temp = NULL) { $1 = &temp; }
%typemap(argout) ember_tensor_t** {
    if (temp$argnum) SWIG_NewPointerObj(L, temp$argnum, $descriptor(ember_tensor_t*), 1); else lua_pushnil(L);
    SWIG_arg++;
}
/* Tensor arrays in (concat, stack, multi_dot) are inputs: no output. */
%typemap(argout) (const ember_tensor_t* const* xs, int n) "";
/* Borrowed dictionary entries: retained, then owned by the Lua value. */
%typemap(in, numinputs=0) ember_tensor_t** tensor (ember_tensor_t* temp = NULL) { $1 = &temp; }
%typemap(argout) ember_tensor_t** tensor {
    if (temp$argnum) { ember_tensor_retain(temp$argnum); SWIG_NewPointerObj(L, temp$argnum, $descriptor(ember_tensor_t*), 1); }
    else lua_pushnil(L);
    SWIG_arg++;
}
%typemap(in, numinputs=0) ember_tensor_dict_t** out (ember_tensor_dict_t* temp = NULL) { $1 = &temp; }
%typemap(argout) ember_tensor_dict_t** out { SWIG_NewPointerObj(L, temp$argnum, $descriptor(ember_tensor_dict_t*), 1); SWIG_arg++; }

/* ---------------------------------------------------------------- bytes: Lua strings
   The *_buffer savers return a Lua string; the *_buffer loaders take one. */
%typemap(in, numinputs=0) (void** data, size_t* size) (void* tdata = NULL, size_t tsize = 0) { $1 = &tdata; $2 = &tsize; }
%typemap(argout) (void** data, size_t* size) {
    lua_pushlstring(L, (const char*)tdata$argnum, tsize$argnum);
    ember_io_free(tdata$argnum);
    SWIG_arg++;
}
%typemap(in, checkfn="lua_isstring") (const void* data, size_t size) {
    size_t len_ = 0;
    $1 = (void*)lua_tolstring(L, $input, &len_);
    $2 = len_;
}
%typemap(in, numinputs=0) int64_t* count (int64_t temp = 0) { $1 = &temp; }
%typemap(argout) int64_t* count { lua_pushinteger(L, (lua_Integer)temp$argnum); SWIG_arg++; }

/* ---------------------------------------------------------------- random state: {key=, counter=}
   uint64 words travel as Lua integers (bit patterns: values >= 2^63 read as negative). */
%typemap(in, numinputs=0) ember_random_state_t* state (ember_random_state_t temp) { memset(&temp, 0, sizeof temp); $1 = &temp; }
%typemap(argout) ember_random_state_t* state {
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, (lua_Integer)temp$argnum.key); lua_setfield(L, -2, "key");
    lua_pushinteger(L, (lua_Integer)temp$argnum.counter); lua_setfield(L, -2, "counter");
    SWIG_arg++;
}
%typemap(in, checkfn="lua_istable") const ember_random_state_t* state (ember_random_state_t temp) {
    lua_getfield(L, $input, "key"); temp.key = (uint64_t)lua_tointeger(L, -1); lua_pop(L, 1);
    lua_getfield(L, $input, "counter"); temp.counter = (uint64_t)lua_tointeger(L, -1); lua_pop(L, 1);
    $1 = &temp;
}

/* The functions the generated module may not link against (declared in the installed
   headers but missing from the installed libember) are listed by the build. */
%include "ember_lua_missing.i"

%include "../ember.i"

/* ================================================================ Lua-only C helpers */
%{
/* Errors: a table {code = status, message = text, status = "shape mismatch"} whose
   metatable ("ember.Error", made at load) gives tostring(err) == message. SWIG's own
   argument errors (wrong type, wrong count) are turned into the same object with
   code EMBER_ERR_INVALID_ARGUMENT, so every error from the module is one kind. */
static void ember_lua_push_error(lua_State* L, int code, const char* msg) {
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, code); lua_setfield(L, -2, "code");
    lua_pushstring(L, msg ? msg : ""); lua_setfield(L, -2, "message");
    lua_pushstring(L, ember_status_string((ember_status_t)code)); lua_setfield(L, -2, "status");
    luaL_getmetatable(L, "ember.Error");
    lua_setmetatable(L, -2);
}
static void ember_lua_wrap_string_error(lua_State* L) {
    if (lua_type(L, -1) == LUA_TSTRING) {
        ember_lua_push_error(L, EMBER_ERR_INVALID_ARGUMENT, lua_tostring(L, -1));
        lua_remove(L, -2);
    }
}
static int ember_lua_raise_status(lua_State* L, ember_status_t st) {
    const char* msg = ember_last_error();
    ember_lua_push_error(L, (int)st, (msg && *msg) ? msg : ember_status_string(st));
    return lua_error(L);
}
#undef EMBER_SWIG_RAISE
#define EMBER_SWIG_RAISE(st) do { const char* m_ = ember_last_error(); \
    ember_lua_push_error(L, (int)(st), (m_ && *m_) ? m_ : ember_status_string(st)); goto fail; } while (0)
#undef SWIG_fail
#define SWIG_fail {ember_lua_wrap_string_error(L); goto fail;}
#undef SWIG_fail_arg
#define SWIG_fail_arg(func_name,argnum,type) \
  {SWIG_Lua_pushferrstring(L,"%s: argument %d: expected %s, got %s", func_name,argnum,type,SWIG_Lua_typename(L,argnum)); \
   ember_lua_wrap_string_error(L); goto fail;}
#undef SWIG_check_num_args
#define SWIG_check_num_args(func_name,a,b) \
  if (lua_gettop(L)<a || lua_gettop(L)>b) \
  {SWIG_Lua_pushferrstring(L,"%s: expected %d..%d arguments, got %d",func_name,a,b,lua_gettop(L)); \
   ember_lua_wrap_string_error(L); goto fail;}

static ember_tensor_t* ember_lua_check_tensor(lua_State* L, int idx) {
    void* p = NULL;
    if (!SWIG_IsOK(SWIG_ConvertPtr(L, idx, &p, SWIGTYPE_p_ember_tensor, 0)) || !p) {
        lua_pushfstring(L, "argument %d: expected a live Tensor, got %s", idx, luaL_typename(L, idx));
        ember_lua_wrap_string_error(L);
        lua_error(L);
    }
    return (ember_tensor_t*)p;
}
static void ember_lua_push_tensor(lua_State* L, ember_tensor_t* t) { SWIG_NewPointerObj(L, t, SWIGTYPE_p_ember_tensor, 1); }
static ember_ctx_t* ember_lua_ctx(lua_State* L) {
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) ember_lua_raise_status(L, ember_last_status());
    return ctx;
}

/* error_metatable() -> the metatable of error objects (the Lua layer adds to it). */
static int ember_lua_error_metatable(lua_State* L) { luaL_getmetatable(L, "ember.Error"); return 1; }
/* make_error(code, message) -> an error object (for errors raised by the Lua layer). */
static int ember_lua_make_error(lua_State* L) {
    ember_lua_push_error(L, (int)luaL_checkinteger(L, 1), luaL_checkstring(L, 2));
    return 1;
}
static int ember_lua_error_tostring(lua_State* L) {
    lua_getfield(L, 1, "message");
    if (!lua_isstring(L, -1)) { lua_pop(L, 1); lua_pushliteral(L, "ember error"); }
    return 1;
}

/* release(t): drops the handle now (for __close); later uses of t fail cleanly. */
static int ember_lua_release(lua_State* L) {
    swig_lua_userdata* usr = (swig_lua_userdata*)lua_touserdata(L, 1);
    if (usr && usr->type == SWIGTYPE_p_ember_tensor) {
        if (usr->own && usr->ptr) ember_tensor_release((ember_tensor_t*)usr->ptr);
        usr->ptr = NULL;
        usr->own = 0;
    }
    return 0;
}
/* is_tensor(v) -> boolean; is_live(t) -> handle not released. */
static int ember_lua_is_tensor(lua_State* L) {
    swig_lua_userdata* usr = lua_type(L, 1) == LUA_TUSERDATA ? (swig_lua_userdata*)lua_touserdata(L, 1) : NULL;
    int ok = 0;
    if (usr && lua_getmetatable(L, 1)) {
        lua_pop(L, 1);
        ok = usr->type == SWIGTYPE_p_ember_tensor;
    }
    lua_pushboolean(L, ok);
    return 1;
}
/* handle_id(t) -> integer address of the handle (identity across views of one handle). */
static int ember_lua_handle_id(lua_State* L) {
    swig_lua_userdata* usr = (swig_lua_userdata*)lua_touserdata(L, 1);
    lua_pushinteger(L, usr ? (lua_Integer)(intptr_t)usr->ptr : 0);
    return 1;
}

/* shape(t) -> {d1, d2, ...} (Lua integers); strides(t) likewise (in elements). */
static int ember_lua_dims(lua_State* L, int strides) {
    ember_tensor_t* t = ember_lua_check_tensor(L, 1);
    int nd = 0; const int64_t* p = NULL;
    ember_status_t st = ember_tensor_ndim(t, &nd);
    if (st == EMBER_OK) st = strides ? ember_tensor_strides(t, &p) : ember_tensor_shape(t, &p);
    if (st != EMBER_OK) return ember_lua_raise_status(L, st);
    lua_createtable(L, nd, 0);
    for (int i = 0; i < nd; ++i) { lua_pushinteger(L, (lua_Integer)p[i]); lua_rawseti(L, -2, i + 1); }
    return 1;
}
static int ember_lua_shape(lua_State* L) { return ember_lua_dims(L, 0); }
static int ember_lua_strides(lua_State* L) { return ember_lua_dims(L, 1); }

/* from_flat(values, shape, kind) -> Tensor. values: a flat Lua array; kind "bool",
   "int" (int64) or "float" (float64); elements are converted with Lua's rules (booleans
   count 1/0 in numeric kinds, numbers != 0 are true in bool). The caller casts further. */
static int ember_lua_from_flat(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    const char* kind = luaL_checkstring(L, 3);
    int nd = (int)luaL_len(L, 2);
    if (nd > EMBER_MAX_DIMS) { ember_lua_push_error(L, EMBER_ERR_SHAPE, "ember.tensor: too many dimensions"); return lua_error(L); }
    int64_t shape[EMBER_MAX_DIMS];
    int64_t count = 1;
    for (int i = 0; i < nd; ++i) {
        lua_geti(L, 2, i + 1);
        shape[i] = (int64_t)lua_tointeger(L, -1);
        lua_pop(L, 1);
        count *= shape[i];
    }
    int64_t n = (int64_t)luaL_len(L, 1);
    if (n != count) {
        lua_pushfstring(L, "ember.tensor: %d values for a shape of %d elements", (int)n, (int)count);
        ember_lua_wrap_string_error(L);
        return lua_error(L);
    }
    ember_dtype_t dt = kind[0] == 'b' ? EMBER_BOOL : kind[0] == 'i' ? EMBER_INT64 : EMBER_FLOAT64;
    size_t isz = ember_dtype_size(dt);
    void* buf = malloc((size_t)(count ? count : 1) * isz);
    if (!buf) { ember_lua_push_error(L, EMBER_ERR_OUT_OF_MEMORY, "ember.tensor: out of memory"); return lua_error(L); }
    for (int64_t i = 0; i < count; ++i) {
        int ty = lua_geti(L, 1, (lua_Integer)(i + 1));
        if (ty != LUA_TNUMBER && ty != LUA_TBOOLEAN) {
            free(buf);
            lua_pushfstring(L, "ember.tensor: element %d is a %s, expected a number or boolean", (int)(i + 1), lua_typename(L, ty));
            ember_lua_wrap_string_error(L);
            return lua_error(L);
        }
        if (dt == EMBER_BOOL) {
            ((uint8_t*)buf)[i] = ty == LUA_TBOOLEAN ? (uint8_t)lua_toboolean(L, -1) : (uint8_t)(lua_tonumber(L, -1) != 0);
        } else if (dt == EMBER_INT64) {
            ((int64_t*)buf)[i] = ty == LUA_TBOOLEAN ? lua_toboolean(L, -1)
                               : lua_isinteger(L, -1) ? (int64_t)lua_tointeger(L, -1) : (int64_t)lua_tonumber(L, -1);
        } else {
            ((double*)buf)[i] = ty == LUA_TBOOLEAN ? (double)lua_toboolean(L, -1) : (double)lua_tonumber(L, -1);
        }
        lua_pop(L, 1);
    }
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { free(buf); return ember_lua_raise_status(L, ember_last_status()); }
    ember_tensor_t* out = NULL;
    ember_status_t st = ember_tensor_from_data(ctx, buf, dt, shape, nd, &out);
    free(buf);
    if (st != EMBER_OK) return ember_lua_raise_status(L, st);
    ember_lua_push_tensor(L, out);
    return 1;
}

/* to_flat(t) -> flat Lua array in C order: integers for integer dtypes, floats for float
   dtypes, booleans for bool, {re, im} pairs for complex. */
static int ember_lua_to_flat(lua_State* L) {
    ember_tensor_t* t = ember_lua_check_tensor(L, 1);
    ember_dtype_t dt; int64_t n;
    ember_status_t st = ember_tensor_dtype(t, &dt);
    if (st == EMBER_OK) st = ember_tensor_size(t, &n);
    if (st != EMBER_OK) return ember_lua_raise_status(L, st);
    ember_dtype_t rd = dt == EMBER_BOOL ? EMBER_BOOL
                     : (dt >= EMBER_INT8 && dt <= EMBER_UINT64) ? EMBER_INT64
                     : (dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128) ? EMBER_COMPLEX128 : EMBER_FLOAT64;
    ember_tensor_t* src = t;
    ember_tensor_t* cast = NULL;
    if (rd != dt) {
        ember_ctx_t* ctx = ember_lua_ctx(L);
        /* astype runs on the tensor's own backend: switch to it for the call. */
        const char* be = NULL; int dev = 0;
        st = ember_tensor_backend(t, &be, &dev);
        if (st == EMBER_OK) st = ember_ctx_push_backend(ctx, be, dev);
        if (st != EMBER_OK) return ember_lua_raise_status(L, st);
        st = ember_astype(ctx, t, rd, &cast);
        ember_ctx_pop_backend(ctx);
        if (st != EMBER_OK) return ember_lua_raise_status(L, st);
        src = cast;
    }
    size_t isz = ember_dtype_size(rd);
    void* buf = malloc((size_t)(n ? n : 1) * isz);
    if (!buf) { ember_tensor_release(cast); ember_lua_push_error(L, EMBER_ERR_OUT_OF_MEMORY, "totable: out of memory"); return lua_error(L); }
    st = ember_tensor_read(src, buf, (size_t)n * isz);
    ember_tensor_release(cast);
    if (st != EMBER_OK) { free(buf); return ember_lua_raise_status(L, st); }
    if (!lua_checkstack(L, 4)) { free(buf); return luaL_error(L, "totable: stack overflow"); }
    lua_createtable(L, n > 0x7fffffff ? 0x7fffffff : (int)n, 0);
    for (int64_t i = 0; i < n; ++i) {
        switch (rd) {
        case EMBER_BOOL: lua_pushboolean(L, ((uint8_t*)buf)[i] != 0); break;
        case EMBER_INT64: lua_pushinteger(L, (lua_Integer)((int64_t*)buf)[i]); break;
        case EMBER_COMPLEX128:
            lua_createtable(L, 2, 0);
            lua_pushnumber(L, ((double*)buf)[2 * i]); lua_rawseti(L, -2, 1);
            lua_pushnumber(L, ((double*)buf)[2 * i + 1]); lua_rawseti(L, -2, 2);
            break;
        default: lua_pushnumber(L, ((double*)buf)[i]); break;
        }
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    free(buf);
    return 1;
}

/* Several outputs as a Lua array of tensors. */
static int ember_lua_push_outs(lua_State* L, ember_tensor_t** outs, int n) {
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; ++i) { ember_lua_push_tensor(L, outs[i]); lua_rawseti(L, -2, i + 1); }
    return 1;
}
/* split(x, sections or {indices...}, axis) -> {views...} */
static int ember_lua_split(lua_State* L) {
    ember_tensor_t* x = ember_lua_check_tensor(L, 1);
    int64_t axis = (int64_t)luaL_optinteger(L, 3, 0);
    int64_t sections = 0;
    int64_t idx[256];
    int nidx = 0;
    if (lua_istable(L, 2)) {
        nidx = (int)luaL_len(L, 2);
        if (nidx > 255) { ember_lua_push_error(L, EMBER_ERR_INVALID_ARGUMENT, "split: too many indices"); return lua_error(L); }
        for (int i = 0; i < nidx; ++i) { lua_geti(L, 2, i + 1); idx[i] = (int64_t)lua_tointeger(L, -1); lua_pop(L, 1); }
    } else {
        sections = (int64_t)luaL_checkinteger(L, 2);
        if (sections < 1 || sections > 65536) { ember_lua_push_error(L, EMBER_ERR_INVALID_ARGUMENT, "split: sections must be in 1..65536"); return lua_error(L); }
    }
    int count = lua_istable(L, 2) ? nidx + 1 : (int)sections;
    ember_tensor_t** outs = (ember_tensor_t**)calloc((size_t)count, sizeof *outs);
    if (!outs) return luaL_error(L, "split: out of memory");
    ember_ctx_t* ctx = ember_binding_ctx();
    ember_status_t st = ctx ? ember_split(ctx, x, sections, lua_istable(L, 2) ? idx : NULL, nidx, axis, outs) : ember_last_status();
    if (st != EMBER_OK) { free(outs); return ember_lua_raise_status(L, st); }
    ember_lua_push_outs(L, outs, count);
    free(outs);
    return 1;
}
/* meshgrid({xs...}, indexing) -> {grids...}; indexing "xy" (default) or "ij". */
static int ember_lua_meshgrid(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    const char* ix = luaL_optstring(L, 2, "xy");
    int n = (int)luaL_len(L, 1);
    if (n < 1 || n > EMBER_MAX_DIMS) { ember_lua_push_error(L, EMBER_ERR_INVALID_ARGUMENT, "meshgrid: 1..16 tensors"); return lua_error(L); }
    const ember_tensor_t* xs[EMBER_MAX_DIMS];
    ember_tensor_t* outs[EMBER_MAX_DIMS];
    for (int i = 0; i < n; ++i) { lua_geti(L, 1, i + 1); xs[i] = ember_lua_check_tensor(L, lua_gettop(L)); lua_pop(L, 1); }
    ember_ctx_t* ctx = ember_lua_ctx(L);
    ember_status_t st = ember_meshgrid(ctx, xs, n, strcmp(ix, "ij") == 0 ? 1 : 0, outs);
    if (st != EMBER_OK) return ember_lua_raise_status(L, st);
    return ember_lua_push_outs(L, outs, n);
}
%}

%native(error_metatable) int ember_lua_error_metatable(lua_State* L);
%native(make_error) int ember_lua_make_error(lua_State* L);
%native(release) int ember_lua_release(lua_State* L);
%native(is_tensor) int ember_lua_is_tensor(lua_State* L);
%native(handle_id) int ember_lua_handle_id(lua_State* L);
%native(shape) int ember_lua_shape(lua_State* L);
%native(strides) int ember_lua_strides(lua_State* L);
%native(from_flat) int ember_lua_from_flat(lua_State* L);
%native(to_flat) int ember_lua_to_flat(lua_State* L);
%native(split) int ember_lua_split(lua_State* L);
%native(meshgrid) int ember_lua_meshgrid(lua_State* L);

%init %{
    if (luaL_newmetatable(L, "ember.Error")) {
        lua_pushcfunction(L, ember_lua_error_tostring);
        lua_setfield(L, -2, "__tostring");
        lua_pushliteral(L, "ember.Error");
        lua_setfield(L, -2, "__name");
    }
    lua_pop(L, 1);
%}
