/*
 * qmp-relay.c: a relay between qmigrate and a QEMU monitor (or any stream
 * socket) that can break the connection on cue, for the session's fault
 * tests (a test program, never installed).
 *
 *	qmp-relay [--cut-after STRING] [--hold STRING --hold-for SECS]
 *	    [--hold-answer STRING] [--drop STRING] [--refuse-for SECS]
 *	    [--armed-by-usr2] [--armed-by STRING]
 *	    [--only-conn N] LISTEN TARGET
 *
 * LISTEN and TARGET are unix:PATH (or a bare PATH) or tcp:HOST:PORT.  For
 * each client accepted on LISTEN the relay opens its own connection to
 * TARGET and copies bytes both ways until either side closes.
 *
 * Why a relay: a real QEMU cannot be made to drop its monitor.  Its QMP
 * server keeps a client until the client leaves or QEMU exits, and a
 * SIGSTOPped QEMU still holds the connection open; there is no command
 * that closes it.  The relay stands where the monitor's socket would be
 * and hangs up at the moment a test names, while QEMU goes on undisturbed.
 *
 *   --cut-after STRING  once a line from TARGET contains STRING (say
 *                       "\"status\": \"completed\""), that line is passed
 *                       on and then the client is hung up (and its TARGET
 *                       connection closed).  Once: later clients, and the
 *                       same client reconnecting, are relayed normally.
 *   --hold STRING       the first bytes from a client that contain STRING
 *   --hold-for SECS     (a command's name) are held SECS seconds (default
 *                       3) before they go on to TARGET: the command reaches
 *                       QEMU late, so its answer is late.  Once.  The
 *                       client is still read while the hold lasts (up to
 *                       32 MiB, kept for after it), so a client
 *                       that writes more never blocks in its write: QEMU
 *                       7.2 writes a migration's last bytes with its big
 *                       lock held, and a blocked write there would stop
 *                       its monitors answering too.
 *   --hold-answer STRING  the first command from a client that contains
 *                       STRING goes on to TARGET at once, but everything
 *                       TARGET sends back from its answer on (events,
 *                       later answers) is held --hold-for SECS seconds:
 *                       QEMU runs the command at once and its answer is
 *                       late (the audit's "late-answer proxy").  Once.
 *                       The answers owed to commands sent before it go
 *                       on first, with what TARGET sent before them
 *                       (QEMU answers in order; a client that sent the
 *                       cue before the answer to its last command came,
 *                       say a query-migrate on the MIGRATION event that
 *                       7.2 sends inside migrate-incoming, would wait
 *                       out the hold for that answer too).
 *   --drop STRING       the first command from a client that contains
 *                       STRING (the JSON object around it) never reaches
 *                       TARGET: QEMU never answers it, and goes on
 *                       answering the others.  Once.
 *   --refuse-for SECS   after any cut, for SECS seconds, a new client is
 *                       accepted and closed at once, as by a monitor that
 *                       went away (0, the default: no refusal).
 *   SIGUSR1             hangs up every client now (a cut), any number of
 *                       times.
 *   --armed-by-usr2     --hold and --drop trigger only after a SIGUSR2:
 *                       the next command with STRING after the signal is
 *                       held or dropped (a test's random moment).  An
 *                       empty --hold STRING matches any bytes, so the
 *                       next bytes from the client are held whatever
 *                       they are (a TLS connection's, say).
 *   --armed-by STRING   the same, armed by the first command from a
 *                       client that contains STRING instead (it goes on
 *                       untouched): the next command with the cue after
 *                       it is the one (a command that follows another,
 *                       say the first query-migrate after
 *                       migrate-incoming, a moment no test could time).
 *   --only-conn N       the cues and SIGUSR1 act on connection N alone
 *                       (counted from 1 as accepted; a tls: source's
 *                       first connection is its control connection);
 *                       the others are relayed untouched.
 *
 * Prints "ready" once listening, then one line per event ("conn N:
 * accepted", "conn N: cut after ...", "conn N: holding ...", "conn N:
 * held N bytes, the most it keeps: ...", "conn N: released (N bytes
 * held)", "conn N: holding the answers ...", "conn N: answers
 * released", "conn N: armed by a command with ...", "conn N: cut on
 * SIGUSR1", "conn N: refused", "conn N: closed by ...") on stdout,
 * which the tests wait on.  Runs until killed.
 * Exit status: 1 usage, 2 LISTEN could not be opened.
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_PAIRS	32
#define READ_SIZE	65536	/* the most one read takes (the scans' arrays hold it) */
#define HOLD_MAX	(32 * 1024 * 1024)	/* what a hold keeps reading, at most */
#define MATCH_MAX	256	/* longest STRING */

/*
 * One direction of a pair: bytes read from one side wait here for the
 * other.  Only a held flow reads more before its bytes have gone on;
 * otherwise buf holds one read.
 */
struct flow {
	char	*buf;			/* cap bytes, on the heap */
	size_t	cap;
	size_t	off;
	size_t	len;
	size_t	fresh;			/* where the last read's bytes begin */
	int	full_said;		/* HOLD_MAX reached, and said so */
	char	tail[MATCH_MAX];	/* the end of what went before, to match across reads */
	size_t	tail_len;
	int	eof;			/* the reading side closed */
};

struct pair {
	int		id;
	int		cfd;		/* the client (qmigrate) */
	int		tfd;		/* our connection to TARGET */
	struct flow	up;		/* client -> target */
	struct flow	down;		/* target -> client */
	int		closing;	/* cut: close once down is flushed */
	int64_t		hold_until;	/* ms; 0: not holding */
	size_t		hold_at;	/* up.buf bytes that may pass before the hold */
	int64_t		answer_until;	/* ms: nothing goes down before; 0: none */
	size_t		answer_at;	/* down.buf bytes that may pass before it */
	/* --hold-answer waits for the answers QEMU owes commands sent
	   before the cue: those are not the cue's, and go on (counted:
	   commands up, answers down, QEMU answering in order). */
	unsigned long	cmds_up;
	unsigned long	answers_down;
	unsigned long	answer_owed;	/* answers_down that starts it; 0: none */
	char		win[8];		/* the last bytes down, for the scan */
	int		line_answer;	/* this line down has "return" or "error" */
	char		line_head[12];	/* its first bytes: an event's begin */
	size_t		line_len;	/* {"timestamp" (QEMU writes it first) */
};

static const char	*cut_after;
static const char	*hold_str;
static const char	*drop_str;
static const char	*hold_answer_str;
static int		 hold_for = 3;
static int		 refuse_for;
static int		 cut_done, hold_done, drop_done, answer_done;
static int		 armed_by_usr2, armed, only_conn;
static const char	*armed_by_str;
static int64_t		 refuse_until;
static int		 sig_pipe[2];
static struct pair	*pairs[MAX_PAIRS];
static int		 next_id = 1;

static int64_t
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
on_usr1(int sig)
{
	int	saved = errno;

	(void)sig;
	if (write(sig_pipe[1], "x", 1) == -1) {
		/* The pipe is full: a cut is pending already. */
	}
	errno = saved;
}

static void
on_usr2(int sig)
{
	int	saved = errno;

	(void)sig;
	if (write(sig_pipe[1], "a", 1) == -1) {
		/* The pipe is full: the signal is pending already. */
	}
	errno = saved;
}

/* Whether the cues and SIGUSR1 act on connection p (--only-conn). */
static int
targeted(const struct pair *p)
{
	return only_conn == 0 || p->id == only_conn;
}

static void
set_nonblock(int fd)
{
	int	fl = fcntl(fd, F_GETFL);

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/*
 * Fills *ss from "unix:PATH", "PATH" or "tcp:HOST:PORT"; returns its length,
 * or 0 for a malformed or unknown address.
 */
static socklen_t
parse_addr(const char *s, struct sockaddr_storage *ss)
{
	struct sockaddr_un	*sun = (struct sockaddr_un *)ss;
	struct addrinfo		 hints, *res;
	char			 host[256];
	const char		*colon;
	socklen_t		 len;

	memset(ss, 0, sizeof *ss);
	if (strncmp(s, "tcp:", 4) == 0) {
		s += 4;
		if ((colon = strrchr(s, ':')) == NULL ||
		    (size_t)(colon - s) >= sizeof host)
			return 0;
		memcpy(host, s, (size_t)(colon - s));
		host[colon - s] = '\0';
		memset(&hints, 0, sizeof hints);
		hints.ai_family = AF_UNSPEC;
		hints.ai_socktype = SOCK_STREAM;
		if (getaddrinfo(host, colon + 1, &hints, &res) != 0)
			return 0;
		memcpy(ss, res->ai_addr, res->ai_addrlen);
		len = res->ai_addrlen;
		freeaddrinfo(res);
		return len;
	}
	if (strncmp(s, "unix:", 5) == 0)
		s += 5;
	if (*s == '\0' || strlen(s) >= sizeof sun->sun_path)
		return 0;
	sun->sun_family = AF_UNIX;
	strcpy(sun->sun_path, s);
	return sizeof *sun;
}

/* Where STRING ends in what was read (after the flow's tail), or -1. */
static ssize_t
match_end(struct flow *f, const char *data, size_t len, const char *str)
{
	char	 scan[MATCH_MAX + READ_SIZE];
	size_t	 slen = strlen(str), n = f->tail_len + len;
	char	*p;

	memcpy(scan, f->tail, f->tail_len);
	memcpy(scan + f->tail_len, data, len);
	p = memmem(scan, n, str, slen);
	if (p == NULL)
		return -1;
	if ((size_t)(p - scan) + slen <= f->tail_len)
		return 0;
	return (ssize_t)((size_t)(p - scan) + slen - f->tail_len);
}

/* Keeps the last bytes of what went through f, to match across reads. */
static void
keep_tail(struct flow *f, const char *data, size_t len)
{
	size_t	keep = MATCH_MAX - 1;
	char	scan[MATCH_MAX + READ_SIZE];
	size_t	n = f->tail_len + len;

	memcpy(scan, f->tail, f->tail_len);
	memcpy(scan + f->tail_len, data, len);
	if (n > keep) {
		memcpy(f->tail, scan + n - keep, keep);
		f->tail_len = keep;
	} else {
		memcpy(f->tail, scan, n);
		f->tail_len = n;
	}
}

static void
pair_free(struct pair *p, const char *why)
{
	int	i;

	printf("conn %d: %s\n", p->id, why);
	close(p->cfd);
	if (p->tfd != -1)
		close(p->tfd);
	free(p->up.buf);
	free(p->down.buf);
	for (i = 0; i < MAX_PAIRS; i++)
		if (pairs[i] == p)
			pairs[i] = NULL;
	free(p);
}

/* A cut: the client is hung up once the line that matched has reached it. */
static void
cut(struct pair *p, const char *why)
{
	printf("conn %d: cut %s\n", p->id, why);
	p->closing = 1;
	p->up.len = p->up.off = 0;
	p->hold_until = 0;
	if (refuse_for > 0)
		refuse_until = now_ms() + (int64_t)refuse_for * 1000;
}

static void
accept_one(int lfd, const struct sockaddr_storage *ta, socklen_t talen)
{
	struct pair	*p;
	int		 cfd, tfd, i, one = 1;

	if ((cfd = accept(lfd, NULL, NULL)) == -1)
		return;
	if (refuse_until != 0 && now_ms() < refuse_until) {
		printf("conn %d: refused\n", next_id++);
		close(cfd);
		return;
	}
	for (i = 0; i < MAX_PAIRS && pairs[i] != NULL; i++)
		;
	tfd = socket(ta->ss_family, SOCK_STREAM, 0);
	if (i == MAX_PAIRS || tfd == -1 ||
	    connect(tfd, (const struct sockaddr *)ta, talen) == -1) {
		printf("conn %d: target: %s\n", next_id++,
		    i == MAX_PAIRS ? "too many connections" : strerror(errno));
		if (tfd != -1)
			close(tfd);
		close(cfd);
		return;
	}
	if (ta->ss_family != AF_UNIX)
		setsockopt(tfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	set_nonblock(cfd);
	set_nonblock(tfd);
	p = calloc(1, sizeof *p);
	if (p == NULL || (p->up.buf = malloc(READ_SIZE)) == NULL ||
	    (p->down.buf = malloc(READ_SIZE)) == NULL) {
		printf("conn %d: out of memory\n", next_id++);
		if (p != NULL)
			free(p->up.buf);
		free(p);
		close(cfd);
		close(tfd);
		return;
	}
	p->up.cap = p->down.cap = READ_SIZE;
	p->id = next_id++;
	p->cfd = cfd;
	p->tfd = tfd;
	pairs[i] = p;
	printf("conn %d: accepted\n", p->id);
}

/*
 * Whether a held flow has room for another read: up to HOLD_MAX bytes are
 * kept, the buffer growing as they come.  Past that it says so, once, and
 * the client's writes block as they would without the relay's reading.
 */
static int
hold_room(struct pair *p)
{
	struct flow	*f = &p->up;
	size_t		 cap = f->cap;
	char		*nb;

	if (f->len + READ_SIZE <= f->cap)
		return 1;
	while (cap < f->len + READ_SIZE && cap < HOLD_MAX)
		cap *= 2;
	if (cap > HOLD_MAX)
		cap = HOLD_MAX;
	if (f->len + READ_SIZE <= cap && (nb = realloc(f->buf, cap)) != NULL) {
		f->buf = nb;
		f->cap = cap;
		return 1;
	}
	if (!f->full_said) {
		f->full_said = 1;
		printf("conn %d: held %zu bytes, the most it keeps: the client "
		    "is not read until the release\n", p->id, f->len);
	}
	return 0;
}

/*
 * Reads what fd has into f, after the bytes f holds (none but in a hold).
 * 1: new bytes, from f->fresh; 0: none (f->eof says whether it closed).
 */
static int
fill(int fd, struct flow *f)
{
	ssize_t	n = read(fd, f->buf + f->len, READ_SIZE);

	if (n > 0) {
		f->fresh = f->len;
		f->len += (size_t)n;
		return 1;
	}
	if (n == 0 || (errno != EAGAIN && errno != EINTR))
		f->eof = 1;
	return 0;
}

/* Writes f's bytes up to limit to fd.  0: the peer is gone. */
static int
flush(int fd, struct flow *f, size_t limit)
{
	ssize_t	n;

	if (limit > f->len)
		limit = f->len;
	if (f->off >= limit)
		return 1;
	n = write(fd, f->buf + f->off, limit - f->off);
	if (n == -1)
		return errno == EAGAIN || errno == EINTR;
	f->off += (size_t)n;
	if (f->off == f->len)
		f->off = f->len = 0;
	return 1;
}

/*
 * Where cue (NULL: none) ends in the new bytes of f (from f->fresh), or -1:
 * not there, or no cue, or its trigger done already.  The flow's tail is
 * kept for the next read either way.
 */
static ssize_t
cue_end(struct flow *f, const char *cue, int done)
{
	ssize_t	end = -1;

	if (cue != NULL && !done)
		end = match_end(f, f->buf + f->fresh, f->len - f->fresh, cue);
	keep_tail(f, f->buf + f->fresh, f->len - f->fresh);
	return end < 0 ? end : (ssize_t)f->fresh + end;
}

/* After new bytes came down from TARGET: the --cut-after trigger. */
static void
check_cut(struct pair *p)
{
	struct flow	*f = &p->down;
	ssize_t		 end;
	char		*nl;

	if ((end = cue_end(f, cut_after, cut_done || !targeted(p))) < 0)
		return;
	/* The whole line that matched goes on; nothing after it. */
	nl = memchr(f->buf + end, '\n', f->len - (size_t)end);
	if (nl != NULL)
		f->len = (size_t)(nl - f->buf) + 1;
	cut_done = 1;
	cut(p, "after a line with the cue");
}

/* Whether the cues still wait to be armed (--armed-by-usr2, --armed-by). */
static int
unarmed(void)
{
	return (armed_by_usr2 || armed_by_str != NULL) && !armed;
}

/* After new bytes came up from the client: the --armed-by trigger. */
static void
check_armed_by(struct pair *p)
{
	if (armed_by_str == NULL || armed || !targeted(p) ||
	    memmem(p->up.buf + p->up.fresh, p->up.len - p->up.fresh,
	    armed_by_str, strlen(armed_by_str)) == NULL)
		return;
	armed = 1;
	printf("conn %d: armed by a command with %s\n", p->id, armed_by_str);
}

/*
 * After new bytes came up from the client: the --drop trigger.  A QMP
 * client sends each command as one JSON object beginning with "execute";
 * the object around STRING is cut out of what goes on (it is whole in one
 * read: qmigrate writes a command at once).
 */
static void
check_drop(struct pair *p)
{
	struct flow	*f = &p->up;
	char		*m, *start = NULL, *q;
	int		 depth = 0, in_str = 0;
	size_t		 end, i;

	if (drop_str == NULL || drop_done || !targeted(p) ||
	    unarmed() ||
	    (m = memmem(f->buf + f->fresh, f->len - f->fresh, drop_str,
	    strlen(drop_str))) == NULL)
		return;
	/* Back from the match to its command's start (an index: a pointer
	 * may not step before the read). */
	for (i = (size_t)(m - f->buf) + 1; i-- > f->fresh;) {
		q = f->buf + i;
		if (*q == '{' && f->len - i > 10 &&
		    strncmp(q, "{\"execute\"", 10) == 0) {
			start = q;
			break;
		}
	}
	if (start == NULL)
		return;
	for (q = start; q < f->buf + f->len; q++) {
		if (in_str) {
			if (*q == '\\')
				q++;
			else if (*q == '"')
				in_str = 0;
		} else if (*q == '"')
			in_str = 1;
		else if (*q == '{')
			depth++;
		else if (*q == '}' && --depth == 0)
			break;
	}
	if (q >= f->buf + f->len)
		return;
	end = (size_t)(q - f->buf) + 1;
	printf("conn %d: dropped a command with the cue: %.*s\n", p->id,
	    (int)(end - (size_t)(start - f->buf)), start);
	memmove(start, f->buf + end, f->len - end);
	f->len -= end - (size_t)(start - f->buf);
	drop_done = 1;
}

/* After new bytes came up from the client: the --hold trigger. */
static void
check_hold(struct pair *p)
{
	struct flow	*f = &p->up;
	ssize_t		 end;
	size_t		 start;

	if ((end = cue_end(f, hold_str, hold_done || !targeted(p) ||
	    unarmed())) < 0)
		return;
	start = (size_t)end >= f->fresh + strlen(hold_str) ?
	    (size_t)end - strlen(hold_str) : f->fresh;
	hold_done = 1;
	p->hold_at = start;
	p->hold_until = now_ms() + (int64_t)hold_for * 1000;
	printf("conn %d: holding a command with the cue for %d s\n", p->id,
	    hold_for);
}

/*
 * After new bytes came up from the client: the --hold-answer trigger.  The
 * command goes on at once; what comes back is held from now on.
 */
static void
start_answer_hold(struct pair *p, size_t at)
{
	p->answer_owed = 0;
	p->answer_at = at;
	p->answer_until = now_ms() + (int64_t)hold_for * 1000;
	printf("conn %d: holding the answers to a command with the cue for "
	    "%d s\n", p->id, hold_for);
}

/* How many commands n bytes at b hold. */
static unsigned long
count_commands(const char *b, size_t n)
{
	const char	*end = b + n, *at;
	unsigned long	 k = 0;

	while (b < end && (at = memmem(b, (size_t)(end - b), "\"execute\"",
	    9)) != NULL) {
		k++;
		b = at + 9;
	}
	return k;
}

static void
check_hold_answer(struct pair *p)
{
	const char	*fresh = p->up.buf + p->up.fresh, *cue;
	size_t		 n = p->up.len - p->up.fresh;
	unsigned long	 before, k;

	if (hold_answer_str == NULL || answer_done || !targeted(p) ||
	    unarmed() || (cue = memmem(fresh, n, hold_answer_str,
	    strlen(hold_answer_str))) == NULL) {
		p->cmds_up += count_commands(fresh, n);
		return;
	}
	answer_done = 1;
	/* The commands before the cue's, this read's included: up to the
	   cue's end, less its own (its "execute" comes before its name). */
	k = count_commands(fresh, (size_t)(cue - fresh) +
	    strlen(hold_answer_str));
	before = p->cmds_up + (k > 0 ? k - 1 : 0);
	p->cmds_up += count_commands(fresh, n);
	if (before > p->answers_down)
		p->answer_owed = before;	/* from_target_scanned starts it */
	else
		start_answer_hold(p, p->down.len);
}

/*
 * After new bytes came down from TARGET: counts its answers, line by line
 * (one JSON object a line), and starts a --hold-answer that waited for
 * the answers owed before its cue, after the line of the last of them.
 */
static void
from_target_scanned(struct pair *p)
{
	size_t	i;

	for (i = p->down.fresh; i < p->down.len; i++) {
		char	c = p->down.buf[i];

		memmove(p->win, p->win + 1, sizeof p->win - 1);
		p->win[sizeof p->win - 1] = c;
		if (memcmp(p->win, "\"return\"", 8) == 0 ||
		    memcmp(p->win + 1, "\"error\"", 7) == 0)
			p->line_answer = 1;
		if (p->line_len < sizeof p->line_head)
			p->line_head[p->line_len] = c;
		p->line_len++;
		if (c != '\n')
			continue;
		/* An event's data may say "error" (BLOCK_JOB_COMPLETED). */
		if (p->line_answer && !(p->line_len >= sizeof p->line_head &&
		    memcmp(p->line_head, "{\"timestamp\"", 12) == 0))
			p->answers_down++;
		p->line_answer = 0;
		p->line_len = 0;
		if (p->answer_owed != 0 && p->answers_down >= p->answer_owed) {
			start_answer_hold(p, i + 1);
			return;
		}
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: qmp-relay [--cut-after STRING] [--hold STRING "
	    "--hold-for SECS] [--hold-answer STRING] [--drop STRING] "
	    "[--refuse-for SECS] "
	    "[--armed-by-usr2] [--armed-by STRING] [--only-conn N] "
	    "LISTEN TARGET\n");
	exit(1);
}

int
main(int argc, char **argv)
{
	struct sockaddr_storage	 la, ta;
	socklen_t		 lalen, talen;
	struct pollfd		 pfd[2 + 2 * MAX_PAIRS];
	struct pair		*pp[MAX_PAIRS];
	struct sigaction	 sa;
	int			 lfd, i, n, np, timeout, one = 1;
	int64_t			 t;
	char			 junk[64];

	for (i = 1; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
		if (strcmp(argv[i], "--armed-by-usr2") == 0) {
			armed_by_usr2 = 1;
			i--;
			continue;
		}
		if (i + 1 >= argc)
			usage();
		if (strcmp(argv[i], "--cut-after") == 0)
			cut_after = argv[i + 1];
		else if (strcmp(argv[i], "--hold") == 0)
			hold_str = argv[i + 1];
		else if (strcmp(argv[i], "--hold-answer") == 0)
			hold_answer_str = argv[i + 1];
		else if (strcmp(argv[i], "--drop") == 0)
			drop_str = argv[i + 1];
		else if (strcmp(argv[i], "--hold-for") == 0)
			hold_for = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--refuse-for") == 0)
			refuse_for = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--only-conn") == 0)
			only_conn = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--armed-by") == 0)
			armed_by_str = argv[i + 1];
		else
			usage();
	}
	if (argc - i != 2 || (cut_after && strlen(cut_after) >= MATCH_MAX) ||
	    (hold_str && strlen(hold_str) >= MATCH_MAX) ||
	    (lalen = parse_addr(argv[i], &la)) == 0 ||
	    (talen = parse_addr(argv[i + 1], &ta)) == 0)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	if (pipe(sig_pipe) == -1)
		return 2;
	set_nonblock(sig_pipe[0]);
	set_nonblock(sig_pipe[1]);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);

	if (la.ss_family == AF_UNIX)
		unlink(((struct sockaddr_un *)&la)->sun_path);
	lfd = socket(la.ss_family, SOCK_STREAM, 0);
	if (lfd != -1)
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (lfd == -1 || bind(lfd, (struct sockaddr *)&la, lalen) == -1 ||
	    listen(lfd, 16) == -1) {
		fprintf(stderr, "qmp-relay: %s: %s\n", argv[i], strerror(errno));
		return 2;
	}
	printf("ready\n");

	for (;;) {
		pfd[0] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = sig_pipe[0], .events = POLLIN };
		n = 2;
		np = 0;
		timeout = -1;
		t = now_ms();
		for (i = 0; i < MAX_PAIRS; i++) {
			struct pair	*p = pairs[i];
			short		 cev = 0, tev = 0;

			if (p == NULL)
				continue;
			if (p->hold_until != 0) {
				if (t >= p->hold_until) {
					p->hold_until = 0;
					printf("conn %d: released (%zu bytes "
					    "held)\n", p->id,
					    p->up.len - p->hold_at);
				} else if (timeout == -1 ||
				    p->hold_until - t < timeout)
					timeout = (int)(p->hold_until - t);
			}
			if (p->answer_until != 0) {
				if (t >= p->answer_until) {
					p->answer_until = 0;
					p->answer_at = 0;
					printf("conn %d: answers released\n",
					    p->id);
				} else if (timeout == -1 ||
				    p->answer_until - t < timeout)
					timeout = (int)(p->answer_until - t);
			}
			if (p->answer_until != 0) {
				/* nothing is read; what came before goes */
				if (p->answer_at > p->down.off &&
				    p->down.len > p->down.off)
					cev |= POLLOUT;
			} else if (p->down.len > p->down.off)
				cev |= POLLOUT;
			else if (!p->closing && !p->down.eof)
				tev |= POLLIN;
			if (p->closing) {
				if (p->down.len == 0) {
					pair_free(p, "hung up");
					continue;
				}
			} else if (p->up.len > p->up.off) {
				if (p->hold_until == 0 ||
				    p->up.off < p->hold_at)
					tev |= POLLOUT;
				if (p->hold_until != 0 && !p->up.eof &&
				    hold_room(p))
					cev |= POLLIN;
			} else if (!p->up.eof)
				cev |= POLLIN;
			pp[np++] = p;
			pfd[n++] = (struct pollfd){ .fd = p->cfd, .events = cev };
			pfd[n++] = (struct pollfd){ .fd = p->tfd, .events = tev };
		}
		if (poll(pfd, (nfds_t)n, timeout) == -1) {
			if (errno == EINTR)
				continue;
			return 2;
		}
		if (pfd[1].revents & POLLIN) {
			int	usr1 = 0;
			ssize_t	 got, k;

			while ((got = read(sig_pipe[0], junk, sizeof junk)) > 0)
				for (k = 0; k < got; k++) {
					if (junk[k] == 'x')
						usr1 = 1;
					else if (!armed) {
						armed = 1;
						printf("armed on SIGUSR2\n");
					}
				}
			for (i = 0; usr1 && i < np; i++)
				if (!pp[i]->closing && targeted(pp[i]))
					cut(pp[i], "on SIGUSR1");
			for (i = 0; usr1 && i < np; i++) {
				if (!targeted(pp[i]))
					continue;
				pp[i]->down.len = pp[i]->down.off = 0;
				pair_free(pp[i], "hung up");
				pp[i] = NULL;
			}
		}
		for (i = 0; i < np; i++) {
			struct pair	*p = pp[i];
			short		 cre = pfd[2 + 2 * i].revents;
			short		 tre = pfd[3 + 2 * i].revents;

			if (p == NULL)
				continue;
			if ((tre & (POLLIN | POLLHUP | POLLERR)) &&
			    p->answer_until == 0 &&
			    p->down.len == 0 && !p->closing && !p->down.eof) {
				if (fill(p->tfd, &p->down)) {
					from_target_scanned(p);
					check_cut(p);
				}
			}
			if ((cre & (POLLIN | POLLHUP | POLLERR)) &&
			    (p->up.len == 0 || (p->hold_until != 0 &&
			    p->up.len + READ_SIZE <= p->up.cap)) &&
			    !p->closing && !p->up.eof) {
				if (fill(p->cfd, &p->up)) {
					check_armed_by(p);
					check_drop(p);
					check_hold(p);
					check_hold_answer(p);
				}
			}
			if (p->down.len > p->down.off &&
			    !flush(p->cfd, &p->down, p->answer_until != 0 ?
			    p->answer_at : p->down.len)) {
				pair_free(p, "closed by the client");
				continue;
			}
			if (!p->closing && p->up.len > p->up.off &&
			    !flush(p->tfd, &p->up, p->hold_until != 0 ?
			    p->hold_at : p->up.len)) {
				pair_free(p, "closed by the target");
				continue;
			}
			if (!p->closing && p->down.eof && p->down.len == 0) {
				pair_free(p, "closed by the target");
				continue;
			}
			if (!p->closing && p->up.eof && p->up.len == 0)
				pair_free(p, "closed by the client");
		}
		if (pfd[0].revents & POLLIN)
			accept_one(lfd, &ta, talen);
	}
}
