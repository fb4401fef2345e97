# libproxy: the TLS migration proxy (owned by the proxy area).
noinst_LIBRARIES += libproxy.a
libproxy_a_SOURCES = proxy/proxy.h proxy/proxy-int.h proxy/proxy-util.c \
	proxy/proxy-tls.c proxy/proxy-tls-files.c proxy/proxy-record.c proxy/proxy-pair.h \
	proxy/proxy-pair-end.c proxy/proxy-pair-plain.c \
	proxy/proxy-pair-record.c proxy/proxy-pair.c \
	proxy/proxy-order.c proxy/proxy-control-rules.h \
	proxy/proxy-control-rules.c \
	proxy/proxy-conn.c proxy/proxy-control.c proxy/proxy-source.c \
	proxy/proxy-target.c proxy/proxy-worker.c

unit_tests += tests/unit/test-proxy-order tests/unit/test-proxy-rules

# The peers of the proxy's shell tests (never installed).
check_PROGRAMS += tests/proxy-peer
tests_proxy_peer_SOURCES = tests/proxy-peer.c
tests_proxy_peer_LDADD = libproxy.a libcommon.a $(OPENSSL_LIBS) $(JSONC_LIBS) $(EV_LIBS)

host_tests += tests/integration/proxy-data.sh \
	tests/integration/proxy-refuse.sh tests/integration/proxy-limits.sh
# tls-kubelet-secret.sh needs root (chgrp, a uid 107 process).
integration_tests += tests/integration/proxy-migrate.sh \
	tests/integration/tls-kubelet-secret.sh \
	tests/integration/proxy-no-engine.sh
EXTRA_DIST += contrib/make-certs.sh tests/proxy-lib.sh proxy/README.md \
	tests/k8s-volume.sh

unit_tests += tests/unit/test-proxy-control

unit_tests += tests/unit/test-proxy-record
