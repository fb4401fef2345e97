/*
 * observe-hang-peer.c: a unix-socket peer that accepts connections and
 * never answers, for the exporter's test of a VM whose QMP socket hangs.
 * A real QEMU answers its monitor from its main loop whatever the guest
 * does (paused, migrating); a monitor that hangs is a QEMU stuck in a
 * long synchronous operation, which cannot be produced on demand, so this
 * fake stands in for it.
 *
 *	observe-hang-peer PATH
 *
 * Prints "ready" once listening; runs until killed.
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common.h"

#define MAX_HELD 64

int
main(int argc, char **argv)
{
	char	*cause;
	int	 fd, held[MAX_HELD], n = 0, c;

	if (argc != 2) {
		fprintf(stderr, "usage: observe-hang-peer PATH\n");
		return 1;
	}
	if ((fd = unix_listen(argv[1], 0, 16, &cause)) == -1) {
		fprintf(stderr, "observe-hang-peer: %s\n", cause);
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		if ((c = accept(fd, NULL, NULL)) == -1)
			continue;
		/* Hold each connection open, silent; drop the oldest past the cap. */
		if (n == MAX_HELD) {
			close(held[0]);
			memmove(held, held + 1, sizeof held[0] * (MAX_HELD - 1));
			n--;
		}
		held[n++] = c;
	}
}
