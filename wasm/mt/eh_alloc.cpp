// libc++abi's allocation of exception objects (fallback_malloc.cpp's four entry points) for the pthreads
// core, with its emergency buffer behind an atomic flag instead of a pthread mutex.
// Why: where malloc fails, libc++abi takes a thrown exception from a 512-byte static heap kept under a
// pthread mutex; with -pthread that mutex (pthread_mutex_lock/trylock/unlock, ~1.2 KB of code) was the
// last user of musl's mutexes in this core. Here a throw whose malloc fails takes the one 512-byte
// buffer if it is free (one exception at a time: the bindings catch each error as it comes), else
// nullptr, for which __cxa_allocate_exception calls std::terminate as libc++abi's heap does when full.
// Compiled without LTO (CMakeLists.txt), as eh_globals.cpp: a plain definition at symbol resolution, so
// that libc++abi's fallback_malloc.o is not linked.
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace {
alignas(16) char g_emergency[512];  // 16: the alignment of _Unwind_Exception on wasm32 (__aligned_type)
std::atomic<bool> g_emergency_used{false};

void* emergency(size_t size) {
  if (size > sizeof g_emergency || g_emergency_used.exchange(true, std::memory_order_acquire)) return nullptr;
  return g_emergency;
}
bool release_emergency(void* p) {
  if (p != g_emergency) return false;
  g_emergency_used.store(false, std::memory_order_release);
  return true;
}
}  // namespace

namespace __cxxabiv1 {

void* __aligned_malloc_with_fallback(size_t size) {
  if (size == 0) size = 1;
  void* p = nullptr;
  if (posix_memalign(&p, 16, size) != 0) p = nullptr;
  return p ? p : emergency(size);
}

void* __calloc_with_fallback(size_t count, size_t size) {
  if (void* p = calloc(count, size)) return p;
  if (count != 0 && size > sizeof g_emergency / count) return nullptr;
  void* p = emergency(count * size);
  if (p) memset(p, 0, count * size);
  return p;
}

void __aligned_free_with_fallback(void* p) {
  if (!release_emergency(p)) free(p);
}

void __free_with_fallback(void* p) {
  if (!release_emergency(p)) free(p);
}

}  // namespace __cxxabiv1
