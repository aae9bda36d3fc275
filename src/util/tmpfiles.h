/* tmpfiles.h — every temporary file ulpbench writes (reports before
 * their rename, --dump staging files, compile cache entries) is
 * registered here while it exists, so that a signal that ends the program
 * (SIGINT, SIGTERM, SIGHUP, SIGPIPE, ...) removes them all before the
 * program dies of it; so are the helper programs it runs (nvcc, the C
 * compiler, Python), which the signal kills first, and their private
 * temporary directories.  Safe to use from several threads. */
#ifndef UB_TMPFILES_H
#define UB_TMPFILES_H

#include <signal.h>
#include <stddef.h>

/* Creates a new file "PATH.tmpPID.N" beside path (O_EXCL, mode 0666 less
 * the umask, as open(2) would make path itself), registered; the name goes
 * to tmp.  Returns its descriptor and *slot, or -1 with errno set (and
 * *slot -1). */
int ub_tmp_create(const char *path, char *tmp, size_t len, int *slot);

/* Registers a name this process is about to create, one no other process
 * uses (it holds the pid); returns the slot, or -1 (errno ENFILE) when too
 * many temporaries exist at once. */
int ub_tmp_track(const char *name);

/* The temporary of slot is gone (renamed into place, or removed): forget
 * it.  A slot of -1 is ignored. */
void ub_tmp_forget(int slot);

/* Removes the temporary of slot and forgets it (a directory's files
 * too). */
void ub_tmp_discard(int slot);

/* Creates a new directory "PATH.tmpPID.N" (mode 0700), registered: a
 * signal removes it with the files in it (and in its subdirectories).
 * Returns 0 and its name in tmp and *slot, or -1 with errno set. */
int ub_tmp_mkdir(const char *path, char *tmp, size_t len, int *slot);

/* Registers a running helper program, the leader of its own process
 * group: a signal kills that group (SIGKILL) and waits for the helper
 * before removing the temporaries.  Returns the slot, or -1 when too
 * many run at once.  ub_tmp_child_done() before the helper is reaped,
 * so that its pid is never reused while registered. */
int ub_tmp_child(int pid);
void ub_tmp_child_done(int slot);

/* The signals the handlers catch, into set (to block them around the
 * start of a helper, so that none lands before it is registered). */
void ub_tmp_signal_set(sigset_t *set);

/* Installs the handlers: each kills the registered helpers, removes every
 * registered temporary and then ends the program by the signal's default
 * action, so its parent sees it die of the signal.  A handler that a
 * library reinstalls with other flags (NVRTC does, through signal())
 * works the same.  A signal ignored when the program started (nohup)
 * stays ignored. */
void ub_tmp_handle_signals(void);

#endif
