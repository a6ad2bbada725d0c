// memcpy, memmove and memset for the linked modules, in place of Emscripten's -Oz libc ones.
// The modules link at -Oz (Binaryen's smallest code), and Emscripten then links its -Oz libc, whose
// versions of these three copy one byte per loop iteration (a 4 MB clone took 10x longer than with the
// -O2 libc, which handed large copies to JS). These use the bulk-memory instructions instead
// (memory.copy, memory.fill: the engine's own memmove and memset); the shortest ranges, which a call
// into the engine would cost more than, go by bytes. This file compiles with -mbulk-memory and without
// LTO (CMakeLists.txt): the LTO code generator emits memcpy calls after it has picked what to keep.
#include <cstddef>

extern "C" {

void* memcpy(void* __restrict dest, const void* __restrict src, size_t n) {
  if (n < 16) {
    auto* d = static_cast<unsigned char*>(dest);
    auto* s = static_cast<const unsigned char*>(src);
#pragma clang loop unroll(disable)
    while (n--) *d++ = *s++;
    return dest;
  }
  __builtin_memcpy(dest, src, n);  // memory.copy
  return dest;
}

void* memmove(void* dest, const void* src, size_t n) {
  __builtin_memmove(dest, src, n);  // memory.copy handles overlap either way
  return dest;
}

void* memset(void* dest, int c, size_t n) {
  if (n < 16) {
    auto* d = static_cast<unsigned char*>(dest);
#pragma clang loop unroll(disable)
    while (n--) *d++ = static_cast<unsigned char>(c);
    return dest;
  }
  __builtin_memset(dest, c, n);  // memory.fill
  return dest;
}

}  // extern "C"
