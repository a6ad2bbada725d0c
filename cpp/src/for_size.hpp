// TP_FOR_SIZE marks a function of an -O3 source that runs once per call of an op, not per element
// (validation, shape bookkeeping, messages, setup around an out-of-line kernel): clang compiles it for
// size (minsize) while the file's kernels keep -O3. Not a public header.
//
// Why per function and not per file (CMakeLists.txt's TP_COLD_SOURCES): these files hold hot loops too,
// and a loop inlined into a function compiled for size is compiled for size with it. The attribute does
// not apply to lambdas inside the function (each is a function of its own) nor to the std templates it
// instantiates (linkonce: whichever source's copy the linker keeps).
#pragma once

#if defined(__clang__)
#define TP_FOR_SIZE __attribute__((minsize))
#else
#define TP_FOR_SIZE
#endif

// TP_COLD_FAIL marks a lambda that only builds and throws an error, called where the check fails:
//   if (index >= n) [&]() TP_COLD_FAIL { fail("select", "index ", index, " is out of range"); }();
// Out of line, compiled for size, noreturn: a hot -O3 function then carries one call per check instead of
// the message's pieces (an initializer_list built on the stack) and its own cleanup.
#if defined(__clang__)
#define TP_COLD_FAIL __attribute__((noinline, cold, minsize, noreturn))
#else
#define TP_COLD_FAIL __attribute__((noinline, cold, noreturn))
#endif

// TP_SCALAR_LOOP keeps the loop after it scalar (no vectorizing, interleaving or unrolling): for loops of
// an -O3 source that are many, or strided, where vectorized copies cost more bytes than they save time.
#if defined(__clang__)
#define TP_SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#else
#define TP_SCALAR_LOOP
#endif
