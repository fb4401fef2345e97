# libqmp: the QMP and guest-agent client (owned by the QMP area).
noinst_LIBRARIES += libqmp.a
libqmp_a_SOURCES = qmp/qmp.h qmp/qmp-private.h qmp/qmp-conn.c \
	qmp/qmp-agent.c qmp/qmp-sync.c qmp/qmp-trace.c

# Unit tests against a fake peer (tests/unit/fake-peer.h says why it is fake).
unit_tests += tests/unit/test-qmp-framing tests/unit/test-qmp-agent
qmp_fake_peer = tests/unit/fake-peer.c tests/unit/fake-peer.h
tests_unit_test_qmp_framing_SOURCES = tests/unit/test-qmp-framing.c \
	$(qmp_fake_peer)
tests_unit_test_qmp_agent_SOURCES = tests/unit/test-qmp-agent.c \
	$(qmp_fake_peer)

# Real QEMU and a real qemu-ga on the host.
integration_tests += tests/integration/qmp-qemu.sh
