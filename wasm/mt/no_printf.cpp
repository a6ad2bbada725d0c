// printf for the pthreads core: never called, defined here so that the linker takes no libc printf.
// Why: Emscripten 3.1.6's sbrk.o (emmalloc's heap growth) carries brk(), whose pthreads branch prints a
// warning by printf. brk() is never called, but the reference alone pulls libc's printf.o, with it
// stdout.o, whose strong __stdout_used replaces the weak dummy that __pthread_create's file-lock set-up
// reads: stdout's FILE, __stdio_write and the fd_write import then stay in the module though nothing
// prints. With this definition the reference is satisfied and none of them is linked.
// The core prints nothing (errors travel as tp::Error values to JS); were a printf ever reached, its text is
// dropped: a diagnostic lost, where a trap would take the reader's worker down with it.
// Compiled without LTO (CMakeLists.txt), as unwind_wasm.cpp: a plain definition at symbol resolution.
extern "C" int printf(const char*, ...) { return 0; }
