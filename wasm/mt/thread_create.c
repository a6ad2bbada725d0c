// Emscripten 3.1.6's pthread_create.c for the pthreads core, without what this core never uses.
// Derived from Emscripten's source (Copyright 2021 The Emscripten Authors; MIT or University of Illinois/NCSA license).
// Why: its __pthread_create is inlined into the work pool's only call, and most of it is set-up for
// programs unlike this one: at the first start, a lock over libc's list of open FILEs and the lock
// fields of stdin, stdout and stderr (musl's __lock/__unlock with their futex waits; this core opens no
// FILE and prints nothing, see no_printf.cpp); a thread's attributes (the pool passes none: the
// default stack size, joinable); a block of PTHREAD_KEYS_MAX thread-specific slots (no pthread key is
// made: the exception globals are a thread_local, eh_globals.cpp); pthread_cleanup_push's handlers at
// exit (none is pushed). What stays is what the JS glue and worker.js read of a new thread: its
// pthread struct (itself, its tid, its stack) and libc's thread counts.
// Compiled without LTO with musl's internal headers (CMakeLists.txt), as no_call_queue.c: a plain
// definition of each symbol at symbol resolution, so that libc's pthread_create.o is not linked.
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <emscripten/emmalloc.h>
#include <emscripten/threading.h>

#include "../internal/libc.h"
#include "../internal/pthread_impl.h"

#define STACK_ALIGN 16

extern int __pthread_create_js(struct pthread* thread, const pthread_attr_t* attr, void* (*start_routine)(void*),
                               void* arg);
extern void __set_thread_state(pthread_t ptr, int is_main, int is_runtime, int can_block);
extern int _emscripten_default_pthread_stack_size();
extern void __emscripten_thread_cleanup(pthread_t thread);
extern void* _emscripten_tls_base();

static pid_t next_tid = 0;

int __pthread_create(pthread_t* restrict res, const pthread_attr_t* restrict attrp, void* (*entry)(void*),
                     void* restrict arg) {
  if (!res || attrp) return EINVAL;  // (the core passes no attributes)
  if (!next_tid) next_tid = getpid() + 1;  // tids count up from the main thread's, as musl's
  libc.threaded = 1;
  // Out of memory, no thread (libc's would write through a null pointer): the pool runs the parts itself.
  struct pthread* new = malloc(sizeof(struct pthread));
  if (!new) return EAGAIN;
  memset(new, 0, sizeof(struct pthread));
  new->self = new;  // points to itself: the struct is alive
  new->tid = next_tid++;
  new->robust_list.head = &new->robust_list.head;
  new->locale = &libc.global_locale;
  new->detach_state = DT_JOINABLE;
  new->stack_size = _emscripten_default_pthread_stack_size();
  // musl keeps the stack's top (it grows down) in pthread_t->stack.
  char* stack = memalign(STACK_ALIGN, new->stack_size);
  if (!stack) {
    free(new);
    return EAGAIN;
  }
  new->stack = stack + new->stack_size;
  new->stack_owned = 1;
  // Set before the thread can run, as libc's: from its start it must take locks.
  if (!libc.threads_minus_1++) libc.need_locks = 1;
  const int rtn = __pthread_create_js(new, attrp, entry, arg);
  if (rtn != 0) {
    if (!--libc.threads_minus_1) libc.need_locks = 0;
    return rtn;
  }
  *res = new;
  return 0;
}

// Called from the JS main thread to free what a thread that no longer runs held.
void _emscripten_thread_free_data(pthread_t t) {
  if (t->stack_owned) emscripten_builtin_free(((char*)t->stack) - t->stack_size);
  memset(t, 0, sizeof(*t));
  emscripten_builtin_free(t);
}

// As libc's (worker.js calls it when a thread's function returns: no pool helper's does), without the
// cleanup handlers and thread-specific data that no thread of this core has.
void _emscripten_thread_exit(void* result) {
  struct pthread* self = __pthread_self();
  self->canceldisable = PTHREAD_CANCEL_DISABLE;
  self->cancelasync = PTHREAD_CANCEL_DEFERRED;
  self->result = result;
  void* tls_block = _emscripten_tls_base();
  if (tls_block) emscripten_builtin_free(tls_block);
  if (!--libc.threads_minus_1) libc.need_locks = 0;
  if (self == emscripten_main_browser_thread_id()) {
    exit(0);
    return;
  }
  __set_thread_state(NULL, 0, 0, 1);  // this worker hosts no pthread any more
  // pthread_detach may race with this: the loser frees the thread's resources.
  const int state = a_cas(&self->detach_state, DT_JOINABLE, DT_EXITING);
  if (state == DT_DETACHED) {
    __emscripten_thread_cleanup(self);
  } else {
    a_store(&self->detach_state, DT_EXITED);
    __wake(&self->detach_state, 1, 1);  // wake a joiner
  }
}

_Noreturn void __pthread_exit(void* retval) {
  _emscripten_thread_exit(retval);
  emscripten_unwind_to_js_event_loop();
}

weak_alias(__pthread_create, emscripten_builtin_pthread_create);
weak_alias(__pthread_create, pthread_create);
weak_alias(__pthread_exit, pthread_exit);
