/* tmpfiles.c — the registry of temporary files (tmpfiles.h).
 *
 * A fixed table of slots, so the signal handler needs no allocation and no
 * lock: a slot is claimed (FREE -> CLAIMED) by compare-and-swap, its name
 * copied, and only then published (LIVE); the handler unlinks the LIVE
 * ones, and unlink(2), sigaction(2) and raise(3) are async-signal-safe.
 * A name is registered before the file is created and forgotten after it
 * was renamed or removed, so a signal at any moment finds every file that
 * exists; unlinking a name not yet created, or already renamed, is
 * harmless, because no other process makes names holding this pid. */
#include "tmpfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the handler needs lock-free atomics");

enum { FREE, CLAIMED, LIVE };
enum { NSLOTS = 512, NAMELEN = 4200 };

static struct slot {
	atomic_int state;
	char name[NAMELEN];
} slots[NSLOTS];

static atomic_uint counter;

int ub_tmp_track(const char *name)
{
	if (strlen(name) >= NAMELEN) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (int i = 0; i < NSLOTS; i++) {
		int expect = FREE;
		if (atomic_compare_exchange_strong(&slots[i].state, &expect, CLAIMED)) {
			strcpy(slots[i].name, name);
			atomic_store(&slots[i].state, LIVE);
			return i;
		}
	}
	errno = ENFILE;
	return -1;
}

void ub_tmp_forget(int slot)
{
	if (slot >= 0 && slot < NSLOTS)
		atomic_store(&slots[slot].state, FREE);
}

void ub_tmp_discard(int slot)
{
	if (slot < 0 || slot >= NSLOTS)
		return;
	unlink(slots[slot].name);
	ub_tmp_forget(slot);
}

int ub_tmp_create(const char *path, char *tmp, size_t len, int *slot)
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

static void on_signal(int sig)
{
	int e = errno;
	for (int i = 0; i < NSLOTS; i++)
		if (atomic_load(&slots[i].state) == LIVE)
			unlink(slots[i].name);
	/* SA_RESETHAND restored the default action and SA_NODEFER leaves the
	 * signal unblocked: raising it again ends the program here */
	raise(sig);
	errno = e;
}

void ub_tmp_handle_signals(void)
{
	static const int sigs[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE,
				   SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ};
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction old, sa;
		if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESETHAND | SA_NODEFER;
		sigaction(sigs[i], &sa, NULL);
	}
}
