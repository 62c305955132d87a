// Writes every OpenCL program the opencl backend can build, as it would hand it to the
// device compiler, into the directory argv[1] (one file per program, named
// <program>_fp64.cl or <program>_fp32.cl). tests/check_opencl_sources.sh compiles them with
// clang as strict OpenCL C 1.2: PoCL accepts constructs that vendor compilers reject (the
// variadic EW_LOOP macro broke every elementwise program on NVIDIA's).
#include <cstdio>
#include <string>

#include "ocl_backend.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <output directory>\n", argv[0]);
        return 2;
    }
    using namespace ember_ocl;
    int written = 0;
    for (bool fp64 : {false, true})
        for (int p = 0; p < PROG_COUNT; ++p) {
            // float64 and complex128 programs are built only on devices with cl_khr_fp64
            // (without it those dtypes go through PROG_SOFT64).
            const int dtype = p < PROG_MISC ? p / G_COUNT : -1;
            if (!fp64 && (dtype == EMBER_FLOAT64 || dtype == EMBER_COMPLEX128)) continue;
            if (!program_has_kernels(p, fp64)) continue;
            const std::string path = std::string(argv[1]) + "/" + std::to_string(p) + (fp64 ? "_fp64.cl" : "_fp32.cl");
            FILE* f = std::fopen(path.c_str(), "w");
            if (!f) {
                std::perror(path.c_str());
                return 1;
            }
            const std::string src = program_source(p, fp64);
            std::fwrite(src.data(), 1, src.size(), f);
            std::fclose(f);
            ++written;
        }
    std::printf("%d programs written to %s\n", written, argv[1]);
    return written > 0 ? 0 : 1;
}
