// __cxa_get_globals for the pthreads core: each thread's exception globals (the caught-exception stack
// and the uncaught count) in a zero-initialized thread_local, as libc++abi itself does where the
// platform has thread_local (cxa_exception_storage.cpp's HAS_THREAD_LOCAL branch).
// Why: Emscripten 3.1.6 builds libc++abi without it, so each thread's globals were a calloc'd block
// behind a pthread key made once (construct_, __cxa_get_globals_fast, the key's destructor, the fallback
// allocator's calloc): ~0.8 KB of code for what is here an address. Nothing is freed at a thread's exit,
// where the key's destructor freed 8 bytes: no thread of this core exits (no_thread_atexit.cpp).
// Compiled without LTO (CMakeLists.txt), as no_printf.cpp: a plain definition at symbol resolution, so
// that libc++abi's cxa_exception_storage.o is not linked.
namespace {
struct EhGlobals {  // libc++abi's __cxa_eh_globals (cxa_exception.h), outside ARM's EHABI
  void* caught_exceptions;
  unsigned int uncaught_exceptions;
};
thread_local EhGlobals t_eh_globals;  // zero before the thread's first use: no guard, no destructor
}  // namespace

extern "C" void* __cxa_get_globals() noexcept { return &t_eh_globals; }
extern "C" void* __cxa_get_globals_fast() noexcept { return &t_eh_globals; }
