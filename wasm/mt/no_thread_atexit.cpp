// __cxa_thread_atexit for the pthreads core: registers nothing, so that libc++abi's is not linked.
// Why: a thread_local with a destructor (gemm's packing scratch, rank2k's and the tridiagonalization's
// buffers) registers that destructor at its first use on each thread. libc++abi's registration keeps the
// list in a function-local static, whose guard (__cxa_guard_acquire/release/abort) brings a mutex and
// musl's condition variable with its timed waits, and a pthread key: ~2 KB of code.
// Nothing is lost: no thread of this core ever exits. The pool's helpers serve until the page (or
// worker) that holds the module goes away, and the main thread is the page's; the registered
// destructors would run only at a thread's exit (Emscripten runs no exit handlers without EXIT_RUNTIME).
// Compiled without LTO (CMakeLists.txt), as no_printf.cpp: a plain definition at symbol resolution.
extern "C" int __cxa_thread_atexit(void (*)(void*), void*, void*) noexcept { return 0; }
