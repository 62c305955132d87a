// Streamed results of loops that cannot stream themselves (the compiler vectorises them from
// scalar code, or they convert between element sizes): run into L1 pieces that the
// streaming copy sends out. Included inside a namespace by elementwise.cpp (astype, where) and by
// each ISA's copy of simd_impl.cpp (simd_unary_ops.hpp's rounding), so that both share it.
//
// run(k, dst, m) writes results k .. k + m - 1, of out_size bytes each, to dst.
// The pieces are lined up with the output's 64-byte lines: the head before the first line
// is written in place, so that no line is streamed in part (that costs a read of the whole
// line). copy is a streaming copy (the ISA table's copy with kStream | kCallerFences): the
// caller fences. Without the streaming stores, each output line was read for ownership
// first: 1e7 float32 -> float64 took 0.70 ns an element on one thread of the Intel host of
// series 42 against 0.46 so, and floor of float64 0.92 against 0.66. Of the conversions and
// roundings only 8-byte results use it: narrower ones timed the same or 3-7% slower so.
// where (elementwise.cpp) uses it for every element size: 1e7 float32 0.31-0.34 -> 0.28-0.29.
template <class Run>
void run_streamed_in_pieces(Run&& run, char* dst, int64_t out_size, int64_t n, void (*copy)(const void*, void*, int64_t, int)) {
    constexpr int64_t kPieceBytes = 4096;
    alignas(64) char piece[kPieceBytes];
    const int64_t per_piece = kPieceBytes / out_size;
    int64_t k = (uintptr_t)dst % (uintptr_t)out_size ? n : std::min<int64_t>(n, (int64_t)((64 - (uintptr_t)dst % 64) % 64) / out_size);
    if (k > 0) run(0, dst, k);
    for (; k < n; k += per_piece) {
        const int64_t m = std::min(per_piece, n - k);
        run(k, piece, m);
        copy(piece, dst + k * out_size, m * out_size, kStream | kCallerFences);
    }
}
