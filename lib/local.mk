# libcommon: the helpers qmp/, proxy/ and src/ all link (lib/common.h).
noinst_LIBRARIES += libcommon.a
libcommon_a_SOURCES = lib/common.h lib/xmalloc.c lib/clock.c lib/unix-socket.c \
	lib/tcp-socket.c lib/read-full.c lib/escape.c
