/*
 * fuzz-peer.h: the far end of a socketpair, played from the fuzz input, for
 * the QMP and guest-agent targets.
 *
 * The input is cut into segments at every FUZZ_PEER_SEP; the peer writes
 * one segment each time the loop goes idle (so libqmp sees them as separate
 * reads, and its own commands go out in between), then shuts its side
 * down, so every run ends with the connection closing.  "@ID" in a segment
 * becomes the id of the last guest-sync-delimited the peer received (the
 * agent's resync answers carry a random id).  Everything libqmp sends is
 * read and dropped.
 */
#ifndef FUZZ_PEER_H
#define FUZZ_PEER_H

#include <stddef.h>
#include <stdint.h>

#define FUZZ_PEER_SEP	"\n--\n"

struct ev_loop;
struct fuzz_peer;

/* Takes fd (closed by fuzz_peer_free()); data is borrowed until then. */
struct fuzz_peer *fuzz_peer_new(struct ev_loop *loop, int fd,
    const uint8_t *data, size_t size);
void fuzz_peer_free(struct fuzz_peer *);

#endif
