-- luarocks make (from bindings/lua) builds the SWIG module against an installed libember
-- found with pkg-config (set PKG_CONFIG_PATH for a non-system prefix) and installs
-- ember_c.so (C module) and ember.lua (the idiomatic layer). Needs SWIG >= 4.0, CMake,
-- pkg-config and the Lua headers.
rockspec_format = "3.0"
package = "ember"
version = "scm-1"
source = {
  url = "git+file:///ember", -- the Ember repository; `luarocks make` builds the checkout in place
  dir = "bindings/lua",
}
description = {
  summary = "Lua binding of Ember, a tensor library with a stable C ABI",
  detailed = [[
Tensors as userdata with operators, conversion from and to nested Lua tables, the whole
op table (ember.add, t:add), submodules (linalg, fft, random, stats, io) and backend
selection (ember.set_backend, ember.using_backend) over libember's C ABI.]],
}
dependencies = { "lua >= 5.3, < 5.5" }
build_dependencies = {}
build = {
  type = "cmake",
  variables = {
    CMAKE_BUILD_TYPE = "Release",
    CMAKE_INSTALL_PREFIX = "$(PREFIX)",
    LUA_INCDIR = "$(LUA_INCDIR)",
    EMBER_LUA_CMOD_DIR = "$(LIBDIR)",
    EMBER_LUA_LMOD_DIR = "$(LUADIR)",
  },
}
test = { type = "command", command = "lua tests/run.lua" }
