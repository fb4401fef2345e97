# libproxy: the TLS migration proxy (owned by the proxy area).
noinst_LIBRARIES += libproxy.a
libproxy_a_SOURCES = proxy/proxy.h proxy/proxy-int.h proxy/proxy-util.c \
	proxy/proxy-tls.c proxy/proxy-record.c proxy/proxy-pair.h \
	proxy/proxy-pair-end.c proxy/proxy-pair-plain.c \
	proxy/proxy-pair-record.c proxy/proxy-pair.c \
	proxy/proxy-order.c \
	proxy/proxy-conn.c proxy/proxy-control.c proxy/proxy-source.c \
	proxy/proxy-target.c

unit_tests += tests/unit/test-proxy-order
tests_unit_test_proxy_order_SOURCES = tests/unit/test-proxy-order.c
tests_unit_test_proxy_order_LDADD = $(unit_ldadd)
tests_unit_test_proxy_order_CFLAGS = $(unit_cflags)

# The peers of the proxy's shell tests (never installed).
check_PROGRAMS += tests/proxy-peer
tests_proxy_peer_SOURCES = tests/proxy-peer.c
tests_proxy_peer_LDADD = libproxy.a libcommon.a $(OPENSSL_LIBS) $(JSONC_LIBS) $(EV_LIBS)

host_tests += tests/integration/proxy-data.sh \
	tests/integration/proxy-refuse.sh tests/integration/proxy-limits.sh
integration_tests += tests/integration/proxy-migrate.sh \
	tests/integration/proxy-no-engine.sh
EXTRA_DIST += contrib/make-certs.sh tests/proxy-lib.sh proxy/README.md

unit_tests += tests/unit/test-proxy-control
tests_unit_test_proxy_control_SOURCES = tests/unit/test-proxy-control.c
tests_unit_test_proxy_control_LDADD = $(unit_ldadd)
tests_unit_test_proxy_control_CFLAGS = $(unit_cflags)

unit_tests += tests/unit/test-proxy-record
tests_unit_test_proxy_record_SOURCES = tests/unit/test-proxy-record.c
tests_unit_test_proxy_record_LDADD = $(unit_ldadd)
tests_unit_test_proxy_record_CFLAGS = $(unit_cflags)
