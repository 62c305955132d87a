/* A shared object without the entry symbol. */
__attribute__((visibility("default"))) int not_an_ember_backend(void) { return 42; }
