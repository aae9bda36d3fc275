/* check_tmpfiles.c — unit tests of the temporary-file registry
 * (src/util/tmpfiles.c): a child process makes temporaries the ways the
 * program does (ub_tmp_create as the reports, the .npy writer and the
 * compile cache do; ub_tmp_track before creating a name, as --dump's
 * staging files), installs the handlers and is sent a signal; it must die
 * of that signal (waitpid's WTERMSIG, as a shell sees it) with every
 * temporary gone, and those already forgotten (renamed into place) kept. */
#include "suites.h"

#include "spawn.h"
#include "tmpfiles.h"

#include <errno.h>
#include <time.h>

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256];

static void setup(void)
{
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/ub-tmpfiles-XXXXXX", t && *t ? t : "/tmp");
	ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp %s", dir);
}

static int exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* Names the child's files, shared with the parent through the fork. */
static char made[3][4300], staged[4300], kept[4300], renamed[4300];
/* (made and kept are filled in the child only) */

/* The child: three temporaries, one tracked name, one renamed into place
 * and forgotten; then sig. */
static void child(int sig)
{
	char path[4200];
	int slot;
	/* a signal ignored when the program starts stays ignored (run under
	   nohup, SIGHUP is): this child starts from the default */
	signal(sig, SIG_DFL);
	ub_tmp_handle_signals();
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/r%d.csv", dir, i);
		if (ub_tmp_create(path, made[i], sizeof made[i], &slot) < 0)
			_exit(10);
	}
	if (ub_tmp_track(staged) < 0 || open(staged, O_WRONLY | O_CREAT, 0666) < 0)
		_exit(11);
	if (ub_tmp_create(renamed, kept, sizeof kept, &slot) < 0 ||
	    rename(kept, renamed) != 0)
		_exit(12);
	ub_tmp_forget(slot);
	raise(sig);
	_exit(13); /* not reached when the handler ends the program */
}

static void signalled(int sig)
{
	snprintf(staged, sizeof staged, "%s/.x.npy.%ld.staging", dir, (long)getpid());
	snprintf(renamed, sizeof renamed, "%s/done.json", dir);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		child(sig);
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == sig,
		      "the child should die of signal %d (status 0x%x)", sig, st);
	/* the child's temporary names are its own: list what it left */
	char all[2048] = "";
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	for (struct dirent *e; (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			strncat(all, e->d_name, sizeof all - strlen(all) - 2);
			strcat(all, " ");
		}
	closedir(d);
	ck_assert_msg(strcmp(all, "done.json ") == 0,
		      "after signal %d only done.json should be left, found: %s", sig, all);
	ck_assert(exists(renamed));
	remove(renamed);
	rmdir(dir);
}

START_TEST(test_sigterm) { signalled(SIGTERM); }
END_TEST

START_TEST(test_sigint) { signalled(SIGINT); }
END_TEST

START_TEST(test_sighup) { signalled(SIGHUP); }
END_TEST

/* Many at once: every slot taken is given back. */
START_TEST(test_reuse)
{
	char path[4200], tmp[4300];
	for (int i = 0; i < 5000; i++) {
		int slot;
		snprintf(path, sizeof path, "%s/f", dir);
		int fd = ub_tmp_create(path, tmp, sizeof tmp, &slot);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_ge(slot, 0);
		close(fd);
		ub_tmp_discard(slot);
		ck_assert(!exists(tmp));
	}
	rmdir(dir);
}
END_TEST

/* The child of test_reinstalled: a registered directory with a file in
 * it, a helper (sleep) running in its own group with its pid sent up the
 * pipe, the handler reinstalled through signal() as NVRTC does (which
 * drops SA_RESETHAND and SA_NODEFER), then sig. */
static void child_reinstalled(int sig, int wfd)
{
	char base[4200], sub[4200], file[4300];
	int slot;
	struct sigaction old;
	struct ub_child c;
	char *argv[] = { (char *)"sleep", (char *)"60", NULL };
	signal(sig, SIG_DFL);
	ub_tmp_handle_signals();
	snprintf(base, sizeof base, "%s/work", dir);
	if (ub_tmp_mkdir(base, sub, sizeof sub, &slot))
		_exit(10);
	snprintf(file, sizeof file, "%s/tmpxft_0001", sub);
	if (open(file, O_WRONLY | O_CREAT, 0666) < 0)
		_exit(11);
	if (ub_child_start(&c, argv, NULL))
		_exit(12);
	if (write(wfd, &c.pid, sizeof c.pid) != sizeof c.pid)
		_exit(13);
	sigaction(sig, NULL, &old);
	signal(sig, old.sa_handler);
	raise(sig);
	_exit(14);
}

/* waitpid with a time limit: the handler must not loop */
static int wait_limited(pid_t pid, int *st)
{
	for (int i = 0; i < 1000; i++) {
		pid_t r = waitpid(pid, st, WNOHANG);
		if (r == pid)
			return 0;
		struct timespec ts = {0, 10000000};
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, st, 0);
	return -1;
}

static void reinstalled(int sig)
{
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	pid_t pid = fork(), helper = 0;
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		child_reinstalled(sig, fds[1]);
	}
	close(fds[1]);
	ssize_t r = read(fds[0], &helper, sizeof helper);
	close(fds[0]);
	int st;
	ck_assert_msg(wait_limited(pid, &st) == 0, "signal %d: the reinstalled "
		      "handler did not end the program within 10 s", sig);
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == sig,
		      "the child should die of signal %d (status 0x%x)", sig, st);
	ck_assert_int_eq(r, (ssize_t)sizeof helper);
	/* the helper was killed (and reaped by the child's handler) */
	ck_assert_msg(kill(helper, 0) != 0 && errno == ESRCH,
		      "the helper %d still runs", (int)helper);
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	ck_assert_msg(n == 0, "signal %d: the registered directory is left", sig);
	rmdir(dir);
}

START_TEST(test_reinstalled_term) { reinstalled(SIGTERM); }
END_TEST

START_TEST(test_reinstalled_int) { reinstalled(SIGINT); }
END_TEST

/* Threads creating and removing temporaries while another thread's
 * handler removes them: the handler waits out each creation under way,
 * so none is left (each round a fresh process, killed after 5 ms). */
static void *churn(void *arg)
{
	char path[4200], tmp[4300];
	snprintf(path, sizeof path, "%s/t%ld", dir, (long)(intptr_t)arg);
	for (int slot;;) {
		int fd = ub_tmp_create(path, tmp, sizeof tmp, &slot);
		if (fd >= 0)
			close(fd);
		ub_tmp_discard(slot);
	}
	return NULL;
}

START_TEST(test_threads)
{
	for (int round = 0; round < 40; round++) {
		pid_t pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			signal(SIGTERM, SIG_DFL);
			ub_tmp_handle_signals();
			pthread_t th;
			for (long t = 0; t < 4; t++)
				if (pthread_create(&th, NULL, churn, (void *)(intptr_t)t))
					_exit(10);
			struct timespec ts = {0, 5000000};
			nanosleep(&ts, NULL);
			kill(getpid(), SIGTERM);
			for (;;)
				pause();
		}
		int st;
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
			      "round %d: the child should die of SIGTERM (status 0x%x)", round, st);
		DIR *d = opendir(dir);
		ck_assert_ptr_nonnull(d);
		for (struct dirent *e; (e = readdir(d));)
			ck_assert_msg(!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."),
				      "round %d: %s left", round, e->d_name);
		closedir(d);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A helper's private TMPDIR is removed with what it left there. */
START_TEST(test_child_dir)
{
	struct ub_child c;
	char *argv[] = { (char *)"sh", (char *)"-c",
			 (char *)"echo x > \"$TMPDIR/left\" && mkdir \"$TMPDIR/d\" && "
			 "echo y > \"$TMPDIR/d/f\"", NULL };
	setenv("TMPDIR", dir, 1);
	ck_assert_int_eq(ub_child_start(&c, argv, NULL), 0);
	char made[sizeof c.dir];
	snprintf(made, sizeof made, "%s", c.dir);
	ck_assert_msg(strncmp(made, dir, strlen(dir)) == 0, "TMPDIR %s not in %s", made, dir);
	int st = ub_child_wait(&c);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_msg(!exists(made), "%s is left", made);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *ub_tmpfiles_suite(void)
{
	Suite *s = suite_create("tmpfiles");
	TCase *tc = tcase_create("signals");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_sigterm);
	tcase_add_test(tc, test_sigint);
	tcase_add_test(tc, test_sighup);
	tcase_add_test(tc, test_reuse);
	tcase_add_test(tc, test_reinstalled_term);
	tcase_add_test(tc, test_reinstalled_int);
	tcase_add_test(tc, test_child_dir);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);
	return s;
}
