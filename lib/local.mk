# libcommon: the helpers qmp/, proxy/ and src/ all link (lib/common.h).
noinst_LIBRARIES += libcommon.a
libcommon_a_SOURCES = lib/common.h lib/xmalloc.c lib/clock.c lib/world.h \
	lib/world.c lib/unix-socket.c lib/unix-backlog.c lib/tcp-socket.c \
	lib/read-full.c lib/escape.c

# The accept queue of a unix listener, read from the kernel (D27).
unit_tests += tests/unit/test-unix-backlog

# The executor's I/O goes through the world (lib/world.h) and nowhere else.
unit_tests += tests/unit/test-world
