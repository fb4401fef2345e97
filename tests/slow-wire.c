/*
 * slow-wire.c: a network cable between two test hosts that delays and
 * loses packets, for the fault tests (a test program, never installed).
 *
 *   slow-wire NS-A DEV-A NS-B DEV-B DELAY-MS LOSS-PCT SEED
 *
 * DEV-A is a persistent tun device (`ip tuntap add ... mode tun`) in the
 * network namespace NS-A (/run/netns/NS-A), DEV-B one in NS-B.  Every IP
 * packet that host A sends into DEV-A comes out of DEV-B DELAY-MS later,
 * and the reverse, unless it is one of the LOSS-PCT% dropped at random
 * (each direction, each packet independently; SEED makes a run
 * repeatable).  Prints "ready" once both ends are attached; on SIGTERM or
 * SIGINT prints "passed N dropped M overflowed K" and exits 0.
 *
 * Why not `tc qdisc ... netem delay`: the kernels this runs on (CI's
 * included) have no sch_netem, and no other qdisc holds packets back.  A
 * tun pair is a real IP link: the TCP ends see the delay and the loss as on
 * a long lossy wire (retransmissions, RTT, window), nothing terminates the
 * connection in between.
 *
 * Bounded: at most QUEUE_SLOTS packets wait per direction (a router's
 * queue); more are dropped and counted as overflowed.  Exit status: 0,
 * 1 usage, 3 a device could not be attached.
 */
#include <sys/ioctl.h>

#include <linux/if.h>
#include <linux/if_tun.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PACKET_MAX	2048	/* above the tun devices' MTU of 1500 */
#define QUEUE_SLOTS	8192	/* per direction: 16 MiB, > 50 ms at 1 Gbit/s */

struct packet {
	int64_t	due_ns;
	size_t	len;
	uint8_t	data[PACKET_MAX];
};

/*
 * One direction of the wire: packets read from `from` wait in a ring, in
 * arrival order (the delay is constant, so due times are ordered too), and
 * are written to `to` when due.
 */
struct direction {
	int		from;
	int		to;
	struct packet	*ring;
	size_t		head;	/* oldest waiting packet */
	size_t		count;
};

static volatile sig_atomic_t	stopping;
static uint64_t			rng_state;
static unsigned long		passed, dropped, overflowed;

static void
on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

/* Exits with CODE after "slow-wire: WHAT OBJECT: strerror(errno)". */
static void
die(int code, const char *what, const char *object)
{
	fprintf(stderr, "slow-wire: %s %s: %s\n", what, object, strerror(errno));
	exit(code);
}

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* xorshift64: cheap, and the same drops for the same seed. */
static unsigned
percentile(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % 100);
}

/*
 * Enters network namespace NS and attaches to its tun device DEV; returns
 * the device's fd, non-blocking.  The fd stays valid after the process
 * moves to another namespace.
 */
static int
attach_tun(const char *ns, const char *dev)
{
	char		path[256];
	struct ifreq	ifr;
	int		nsfd, fd;

	snprintf(path, sizeof path, "/run/netns/%s", ns);
	if ((nsfd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		die(3, "open", path);
	if (setns(nsfd, CLONE_NEWNET) == -1)
		die(3, "setns", path);
	close(nsfd);
	if ((fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC)) == -1)
		die(3, "open", "/dev/net/tun");
	memset(&ifr, 0, sizeof ifr);
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", dev);
	if (ioctl(fd, TUNSETIFF, &ifr) == -1)
		die(3, "attach tun", dev);
	return fd;
}

/* Reads every packet waiting on d->from; queues, drops or loses each. */
static void
take_packets(struct direction *d, int64_t delay_ns, unsigned loss_pct)
{
	struct packet	 spill;
	struct packet	*p;
	ssize_t		 n;

	for (;;) {
		p = d->count < QUEUE_SLOTS ?
		    &d->ring[(d->head + d->count) % QUEUE_SLOTS] : &spill;
		n = read(d->from, p->data, sizeof p->data);
		if (n <= 0)
			return;	/* EAGAIN: drained */
		if (p == &spill)
			overflowed++;
		else if (percentile() < loss_pct)
			dropped++;
		else {
			p->len = (size_t)n;
			p->due_ns = now_ns() + delay_ns;
			d->count++;
		}
	}
}

/* Writes the packets that are due; returns ns until the next is, or -1. */
static int64_t
deliver_due(struct direction *d)
{
	struct packet	*p;
	int64_t		 t = now_ns();

	while (d->count > 0) {
		p = &d->ring[d->head];
		if (p->due_ns > t)
			return p->due_ns - t;
		/* A full tun queue on the far side loses the packet, as a wire would. */
		if (write(d->to, p->data, p->len) != (ssize_t)p->len)
			overflowed++;
		else
			passed++;
		d->head = (d->head + 1) % QUEUE_SLOTS;
		d->count--;
	}
	return -1;
}

int
main(int argc, char **argv)
{
	struct direction	dir[2];
	struct pollfd		pfd[2];
	struct sigaction	sa;
	int64_t			delay_ns, wait_ns, w;
	unsigned		loss_pct;
	int			fd_a, fd_b, i, timeout_ms;

	if (argc != 8) {
		fprintf(stderr, "usage: slow-wire NS-A DEV-A NS-B DEV-B "
		    "DELAY-MS LOSS-PCT SEED\n");
		return 1;
	}
	delay_ns = strtoll(argv[5], NULL, 10) * 1000000;
	loss_pct = (unsigned)strtoul(argv[6], NULL, 10);
	rng_state = strtoull(argv[7], NULL, 10) | 1;
	if (delay_ns < 0 || loss_pct > 100) {
		fprintf(stderr, "slow-wire: delay %s ms or loss %s%% out of range\n",
		    argv[5], argv[6]);
		return 1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;	/* no SA_RESTART: poll returns EINTR */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	fd_a = attach_tun(argv[1], argv[2]);
	fd_b = attach_tun(argv[3], argv[4]);
	dir[0] = (struct direction){ .from = fd_a, .to = fd_b };
	dir[1] = (struct direction){ .from = fd_b, .to = fd_a };
	for (i = 0; i < 2; i++) {
		dir[i].ring = calloc(QUEUE_SLOTS, sizeof *dir[i].ring);
		if (dir[i].ring == NULL) {
			fprintf(stderr, "slow-wire: out of memory\n");
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);

	while (!stopping) {
		wait_ns = -1;
		for (i = 0; i < 2; i++) {
			w = deliver_due(&dir[i]);
			if (w >= 0 && (wait_ns < 0 || w < wait_ns))
				wait_ns = w;
		}
		/* Round up: waking early would spin until the packet is due. */
		timeout_ms = wait_ns < 0 ? 1000 : (int)((wait_ns + 999999) / 1000000);
		for (i = 0; i < 2; i++)
			pfd[i] = (struct pollfd){ .fd = dir[i].from, .events = POLLIN };
		if (poll(pfd, 2, timeout_ms) == -1 && errno != EINTR)
			die(3, "poll", "tun devices");
		for (i = 0; i < 2; i++)
			if (pfd[i].revents & POLLIN)
				take_packets(&dir[i], delay_ns, loss_pct);
	}
	printf("passed %lu dropped %lu overflowed %lu\n", passed, dropped,
	    overflowed);
	for (i = 0; i < 2; i++)
		free(dir[i].ring);
	close(fd_a);
	close(fd_b);
	return 0;
}
