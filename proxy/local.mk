# libproxy: the TLS migration proxy (owned by the proxy area).
noinst_LIBRARIES += libproxy.a
libproxy_a_SOURCES = proxy/proxy.h
