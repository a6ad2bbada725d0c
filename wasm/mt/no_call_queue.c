// Emscripten 3.1.6's library_pthread.c for the pthreads core, without its queue of proxied calls.
// Derived from Emscripten's source (Copyright 2015 The Emscripten Authors; MIT or University of Illinois/NCSA license).
// Why: library_pthread.o carries the queue through which a worker runs a C or JS function on another
// thread (_do_call's switch over every signature, the dispatch, the sync and async runs, the queue's
// pthread mutex), ~3 KB of code that emcc exports for worker.js and the JS glue whatever the program does.
// This core proxies nothing: its helpers run kernels and sleep on the pool's atomic words, and only the
// thread that loaded the module (the main runtime thread) starts them, calls into JS or exits. So nothing
// is ever queued, and the entry points the glue names do nothing or refuse:
// - a queue to process is always empty (the main thread's futex wait and worker.js look at it);
// - pthread_create called on a worker (which the glue would proxy to the main thread) fails with EAGAIN,
//   as when the browser's pool of workers is used up (the work pool then runs the parts itself);
// - a proxied JS call (exit on a worker) aborts, and a dispatch to another thread returns an error.
// The main thread's pthread struct is set up as library_pthread.c does (__emscripten_init_main_thread).
// Compiled without LTO with musl's internal headers (CMakeLists.txt), as the libc it replaces: a plain
// definition of each symbol at symbol resolution, so that libc's library_pthread.o is not linked.
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <emscripten/stack.h>
#include <emscripten/threading.h>

#include "../internal/libc.h"
#include "../internal/pthread_impl.h"

void __emscripten_init_main_thread_js(void* tb);

static struct pthread __main_pthread;

pthread_t emscripten_main_browser_thread_id() { return &__main_pthread; }

int _emscripten_allow_main_runtime_queued_calls = 1;  // the glue writes it; nothing to allow

void emscripten_current_thread_process_queued_calls() {}
void emscripten_main_thread_process_queued_calls() {}

void* emscripten_sync_run_in_main_thread_2(int function, void* arg1, void* arg2) { return (void*)EAGAIN; }
void* emscripten_sync_run_in_main_thread_4(int function, void* arg1, void* arg2, void* arg3, void* arg4) {
  return (void*)EAGAIN;  // the glue's pthread_create on a worker: its result
}
// The glue's proxied JS calls: exit() on a worker (never made: pthread_exit's exit(0) is the main thread's).
double emscripten_run_in_main_runtime_thread_js(int index, int num_args, int64_t* buffer, int sync) { abort(); }
int emscripten_dispatch_to_thread_(pthread_t target_thread, EM_FUNC_SIGNATURE sig, void* func_ptr,
                                   void* satellite, ...) {
  return -1;
}

static void* dummy_tsd[1] = {0};
weak_alias(dummy_tsd, __pthread_tsd_main);

// As library_pthread.c (see Emscripten's system/lib/README.md for the constructors' order).
__attribute__((constructor(48))) void __emscripten_init_main_thread(void) {
  __emscripten_init_main_thread_js(&__main_pthread);
  __main_pthread.self = &__main_pthread;  // points to itself: the struct is alive
  __main_pthread.stack = (void*)emscripten_stack_get_base();
  __main_pthread.stack_size = emscripten_stack_get_base() - emscripten_stack_get_end();
  __main_pthread.detach_state = DT_JOINABLE;
  __main_pthread.robust_list.head = &__main_pthread.robust_list.head;
  __main_pthread.tid = getpid();  // 1: musl takes a tid never 0
  __main_pthread.locale = &libc.global_locale;
  __main_pthread.tsd = (void**)__pthread_tsd_main;
}
