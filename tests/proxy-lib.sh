# tests/proxy-lib.sh: helpers of the proxy tests, sourced after
# tests/lib.sh.  Data goes from tests/proxy-peer (the "QEMU" ends) through
# qmigrate proxy source -> TLS on 127.0.0.1 -> qmigrate proxy target.

PEER=$top_builddir/tests/proxy-peer
MAKE_CERTS=$top_srcdir/contrib/make-certs.sh
need_cmd openssl sha256sum
need_file "$PEER" "the proxy tests' peer program"

# start_target NAME QEMU-SOCKET [ARGS...]: a target proxy on a free port of
# 127.0.0.1; sets TARGET_PORT.
start_target() {
	local name=$1 sock=$2
	shift 2
	bg_start "$name" "$QMIGRATE" -v proxy target \
		--listen tls:127.0.0.1:0 --to "unix:$sock" \
		--tls-dir "$TMP/pki/target" "$@"
	wait_log "$TMP/$name.err" 'target: listening on .*\(port [0-9]+\)' 10
	TARGET_PORT=$(sed -n 's/.*target: listening on .*(port \([0-9]*\)).*/\1/p' \
		"$TMP/$name.err" | head -n 1)
}

# start_source NAME SOCKET PORT [ARGS...]: a source proxy listening on
# unix SOCKET, forwarding to 127.0.0.1:PORT (default certificate: source).
start_source() {
	local name=$1 sock=$2 port=$3
	shift 3
	bg_start "$name" "$QMIGRATE" -v proxy source --listen "unix:$sock" \
		--to "tls:127.0.0.1:$port" "$@"
	wait_log "$TMP/$name.err" 'source: listening on' 10
}

# start_sink NAME SOCKET N: the target "QEMU": records the i-th accepted
# connection in $TMP/NAME.d/i as "TAG BYTES SHA256 STATUS".
start_sink() {
	mkdir -p "$TMP/$1.d"
	bg_start "$1" "$PEER" sink "$2" "$TMP/$1.d" "$3"
	wait_for 10 "sink $1" test -S "$2"
}

# rss_kib NAME: VmRSS of what bg_start NAME started, in KiB.
rss_kib() {
	_lib_pid_of "$1"
	awk '/^VmRSS:/ { print $2 }' "/proc/$_lib_pid/status"
}

# count_lines FILE REGEX: how many lines of FILE match REGEX.
count_lines() {
	grep -Eac -- "$2" "$1" 2>/dev/null || true
}
