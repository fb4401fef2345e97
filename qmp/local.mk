# libqmp: the QMP and guest-agent client (owned by the QMP area).
noinst_LIBRARIES += libqmp.a
libqmp_a_SOURCES = qmp/qmp.h
