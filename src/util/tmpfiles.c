/* tmpfiles.c — the registry of temporary files (tmpfiles.h).
 *
 * A fixed table of slots, so the signal handler needs no allocation and no
 * lock: a slot is claimed (FREE -> CLAIMED) by compare-and-swap, its name
 * copied, and only then published (LIVE); the handler unlinks the LIVE
 * ones.  A name is registered before the file is created and forgotten
 * after it was renamed or removed, so a signal at any moment finds every
 * file that exists; unlinking a name not yet created, or already renamed,
 * is harmless, because no other process makes names holding this pid.
 * A directory slot (a child's private TMPDIR) is emptied and removed; a
 * child slot holds the pid of a helper program that leads its own process
 * group, which the handler kills and waits for before it removes files
 * the helper may still be writing.  Everything the handler calls is
 * async-signal-safe (kill, waitpid, unlink, unlinkat, rmdir, open, close,
 * sigaction, sigprocmask, nanosleep, raise, and the getdents64 system
 * call). */
#include "tmpfiles.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the handler needs lock-free atomics");

enum { FREE, CLAIMED, LIVE };
enum { NSLOTS = 512, NAMELEN = 4200, NCHILDREN = 64 };

static struct slot {
	atomic_int state;
	int is_dir;
	char name[NAMELEN];
} slots[NSLOTS];

static atomic_int children[NCHILDREN]; /* pids; 0: free */

static atomic_uint counter;

/* Set by the handler before it removes anything; creating counts the
 * creations between their test of dying and their file's existence, which
 * the handler waits out: a thread that creates a temporary while another
 * thread's handler removes them either sees dying and creates nothing, or
 * is waited for, and its file (registered before it exists) removed. */
static atomic_int dying, creating;

/* The signals whose default action ends the program: X(signal). */
#define UB_FATAL_SIGNALS(X)                                                  \
	X(SIGHUP) X(SIGINT) X(SIGQUIT) X(SIGTERM) X(SIGPIPE) X(SIGALRM)     \
	X(SIGUSR1) X(SIGUSR2) X(SIGXCPU) X(SIGXFSZ)

static const int fatal[] = {
#define X(sig) sig,
	UB_FATAL_SIGNALS(X)
#undef X
};
#define NFATAL (sizeof fatal / sizeof fatal[0])

void ub_tmp_signal_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < NFATAL; i++)
		sigaddset(set, fatal[i]);
}

static int track(const char *name, int is_dir)
{
	if (strlen(name) >= NAMELEN) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (int i = 0; i < NSLOTS; i++) {
		int expect = FREE;
		if (atomic_compare_exchange_strong(&slots[i].state, &expect, CLAIMED)) {
			strcpy(slots[i].name, name);
			slots[i].is_dir = is_dir;
			atomic_store(&slots[i].state, LIVE);
			return i;
		}
	}
	errno = ENFILE;
	return -1;
}

int ub_tmp_track(const char *name)
{
	return track(name, 0);
}

void ub_tmp_forget(int slot)
{
	if (slot >= 0 && slot < NSLOTS)
		atomic_store(&slots[slot].state, FREE);
}

/* Removes the files of directory dir (one level below it too), then dir;
 * async-signal-safe. */
static void remove_dir(const char *dir, int depth)
{
	char buf[4096], path[NAMELEN + 260];
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	for (long n; fd >= 0 && (n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0;) {
		for (long off = 0; off < n;) {
			/* struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name */
			unsigned short reclen;
			memcpy(&reclen, buf + off + 16, sizeof reclen);
			const char *name = buf + off + 19;
			unsigned char type = (unsigned char)buf[off + 18];
			off += reclen;
			if (!strcmp(name, ".") || !strcmp(name, ".."))
				continue;
			if (unlinkat(fd, name, 0) == 0 || type != DT_DIR || depth > 0)
				continue;
			size_t dl = strlen(dir), nl = strlen(name);
			if (dl + nl + 2 > sizeof path)
				continue;
			memcpy(path, dir, dl);
			path[dl] = '/';
			memcpy(path + dl + 1, name, nl + 1);
			remove_dir(path, depth + 1);
		}
	}
	if (fd >= 0)
		close(fd);
	rmdir(dir);
}

void ub_tmp_discard(int slot)
{
	if (slot < 0 || slot >= NSLOTS)
		return;
	if (slots[slot].is_dir)
		remove_dir(slots[slot].name, 0);
	else
		unlink(slots[slot].name);
	ub_tmp_forget(slot);
}

/* The window of a creation: the fatal signals blocked in this thread (so
 * that its own handler never waits for it), counted in creating; -1
 * (EINTR) when the program is dying. */
static int begin(sigset_t *old)
{
	sigset_t set;
	ub_tmp_signal_set(&set);
	pthread_sigmask(SIG_BLOCK, &set, old);
	atomic_fetch_add(&creating, 1);
	if (!atomic_load(&dying))
		return 0;
	atomic_fetch_sub(&creating, 1);
	pthread_sigmask(SIG_SETMASK, old, NULL);
	errno = EINTR;
	return -1;
}

/* The window's end, errno kept. */
static void end(const sigset_t *old)
{
	int e = errno;
	atomic_fetch_sub(&creating, 1);
	pthread_sigmask(SIG_SETMASK, old, NULL);
	errno = e;
}

static int create(const char *path, char *tmp, size_t len, int *slot)
{
	*slot = -1; /* on every failure */
	for (int tries = 0; tries < 100; tries++) {
		unsigned n = atomic_fetch_add(&counter, 1);
		if ((size_t)snprintf(tmp, len, "%s.tmp%ld.%u", path, (long)getpid(), n) >= len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		*slot = ub_tmp_track(tmp);
		if (*slot < 0)
			return -1;
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0)
			return fd;
		int e = errno;
		ub_tmp_forget(*slot); /* not ours: a dead process's with our pid */
		*slot = -1;
		errno = e;
		if (e != EEXIST)
			return -1;
	}
	return -1;
}

/* make (create or make_dir) inside the window of a creation. */
static int in_window(int (*make)(const char *, char *, size_t, int *), const char *path,
		     char *tmp, size_t len, int *slot)
{
	sigset_t old;
	*slot = -1;
	if (begin(&old))
		return -1;
	int r = make(path, tmp, len, slot);
	end(&old);
	return r;
}

int ub_tmp_create(const char *path, char *tmp, size_t len, int *slot)
{
	return in_window(create, path, tmp, len, slot);
}

static int make_dir(const char *path, char *tmp, size_t len, int *slot)
{
	*slot = -1;
	for (int tries = 0; tries < 100; tries++) {
		unsigned n = atomic_fetch_add(&counter, 1);
		if ((size_t)snprintf(tmp, len, "%s.tmp%ld.%u", path, (long)getpid(), n) >= len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if ((*slot = track(tmp, 1)) < 0)
			return -1;
		if (mkdir(tmp, 0700) == 0)
			return 0;
		int e = errno;
		ub_tmp_forget(*slot);
		*slot = -1;
		errno = e;
		if (e != EEXIST)
			return -1;
	}
	return -1;
}

int ub_tmp_mkdir(const char *path, char *tmp, size_t len, int *slot)
{
	return in_window(make_dir, path, tmp, len, slot);
}

int ub_tmp_child(int pid)
{
	for (int i = 0; i < NCHILDREN; i++) {
		int expect = 0;
		if (atomic_compare_exchange_strong(&children[i], &expect, pid))
			return i;
	}
	return -1;
}

void ub_tmp_child_done(int slot)
{
	if (slot >= 0 && slot < NCHILDREN)
		atomic_store(&children[slot], 0);
}

/* Kills every helper's process group and waits for the helpers, and up
 * to 0.2 s for the rest of their groups, so that nothing writes into the
 * temporary directories once they are removed. */
static void kill_children(void)
{
	int any = 0;
	for (int i = 0; i < NCHILDREN; i++) {
		int pid = atomic_load(&children[i]);
		if (pid > 0 && kill(-pid, SIGKILL) == 0)
			any = 1;
	}
	for (int i = 0; any && i < NCHILDREN; i++) {
		int pid = atomic_load(&children[i]);
		if (pid > 0)
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
	}
	for (int t = 0; any && t < 20; t++) {
		int alive = 0;
		for (int i = 0; i < NCHILDREN; i++) {
			int pid = atomic_load(&children[i]);
			alive |= pid > 0 && kill(-pid, 0) == 0;
		}
		if (!alive)
			break;
		struct timespec ts = {0, 10000000};
		nanosleep(&ts, NULL);
	}
}

static void on_signal(int sig)
{
	sigset_t all, one;
	/* a second signal waits: the first one's cleaning is not cut short
	 * (the handler may have been reinstalled, e.g. through signal(),
	 * without the mask ub_tmp_handle_signals gave it) */
	ub_tmp_signal_set(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	atomic_store(&dying, 1);
	kill_children();
	/* the creations under way in other threads (microseconds; 0.2 s at
	 * most, should one of them be stopped) */
	for (int t = 0; t < 200 && atomic_load(&creating) > 0; t++) {
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL);
	}
	for (int i = 0; i < NSLOTS; i++)
		if (atomic_load(&slots[i].state) == LIVE) {
			if (slots[i].is_dir)
				remove_dir(slots[i].name, 0);
			else
				unlink(slots[i].name);
		}
	/* die of sig: its default action, then unblocked.  Done here rather
	 * than through SA_RESETHAND and SA_NODEFER, which a library that
	 * reinstalls the handler through signal() drops (NVRTC does): with
	 * them gone, raise() would call this handler again, forever */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	_exit(128 + sig); /* not reached */
}

void ub_tmp_handle_signals(void)
{
	for (size_t i = 0; i < NFATAL; i++) {
		struct sigaction old, sa;
		if (sigaction(fatal[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		ub_tmp_signal_set(&sa.sa_mask);
		sigaction(fatal[i], &sa, NULL);
	}
}
