# libqmp: the QMP and guest-agent client (owned by the QMP area).
noinst_LIBRARIES += libqmp.a
libqmp_a_SOURCES = qmp/qmp.h qmp/qmp-private.h qmp/qmp-conn.c \
	qmp/qmp-agent.c qmp/qmp-sync.c
