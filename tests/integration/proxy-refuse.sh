#!/usr/bin/env bash
# proxy-refuse.sh: bad peers are refused with one clear log line each and
# not a byte reaches the target's unix socket: a certificate from another
# CA, an expired certificate, a wrong name, no client certificate, a
# plaintext client, a subject that is not the pinned one; and a key file
# others may read is not loaded.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/proxy-lib.sh"
setup_tmp
make_pki source target
# Another CA's "source", but trusting our CA so that it gets as far as
# presenting its certificate to our target.
"$MAKE_CERTS" "$TMP/evil" source >/dev/null
cp "$TMP/pki/ca.pem" "$TMP/evil/source/ca.pem"
"$MAKE_CERTS" --expired "$TMP/pki" old >/dev/null

# The sink records every connection it accepts; the first must be "good".
start_sink sink "$TMP/sink.sock" 1
start_target tgt "$TMP/sink.sock"
main_port=$TARGET_PORT

# refused_source NAME REGEX-IN-TARGET-LOG ARGS...: a source proxy with
# ARGS; one connection through it must fail and the target log REGEX.
refused_source() {
	local name=$1 re=$2 before
	shift 2
	before=$(count_lines "$TMP/tgt.err" ': refused: ')
	start_source "$name" "$TMP/$name.sock" "$TARGET_PORT" "$@"
	if "$PEER" send "$TMP/$name.sock" "$name" 65536 >"$TMP/$name.send"; then
		fail "$name: transfer succeeded"
	fi
	wait_log "$TMP/tgt.err" "$re" 10
	[ "$(count_lines "$TMP/tgt.err" ': refused: ')" -gt "$before" ] ||
		fail "$name: target logged no refusal"
	grep -Ea "$re" "$TMP/tgt.err" | head -n 1
}

refused_source other-ca \
	'peer 127\.0\.0\.1:[0-9]+: refused: certificate verify failed: unable to get local issuer certificate' \
	--tls-dir "$TMP/evil/source"
# An expired certificate: qmigrate's own proxy refuses to start with one
# (its own configuration error, said at once), so the peer presenting it
# is openssl's client.
rc=0
"$QMIGRATE" proxy source --listen "unix:$TMP/old.sock" \
	--to "tls:127.0.0.1:$TARGET_PORT" --tls-dir "$TMP/pki/old" \
	2>"$TMP/old-start.err" || rc=$?
[ "$rc" -eq 1 ] || fail "a source proxy with an expired certificate: exit $rc, expected 1"
grep -q "pki/old/cert.pem: expired on .* 2020" "$TMP/old-start.err" ||
	fail "expired certificate not named: $(cat "$TMP/old-start.err")"
before=$(count_lines "$TMP/tgt.err" ': refused: ')
openssl s_client -connect "127.0.0.1:$TARGET_PORT" -CAfile "$TMP/pki/ca.pem" \
	-cert "$TMP/pki/old/cert.pem" -key "$TMP/pki/old/key.pem" \
	</dev/null >"$TMP/s_client-old.out" 2>&1 || true
wait_log "$TMP/tgt.err" 'peer 127\.0\.0\.1:[0-9]+: refused: certificate verify failed: certificate has expired' 10
[ "$(count_lines "$TMP/tgt.err" ': refused: ')" -gt "$before" ] ||
	fail "expired: target logged no refusal"

# Wrong name: the source refuses the target (its certificate says
# "target" and 127.0.0.1, not wrong.example).
start_source wrongname "$TMP/wrongname.sock" "$TARGET_PORT" \
	--tls-dir "$TMP/pki/source" --tls-name wrong.example
if "$PEER" send "$TMP/wrongname.sock" wrongname 65536 >/dev/null; then
	fail "wrong name: transfer succeeded"
fi
wait_log "$TMP/wrongname.err" 'refused: TLS with 127\.0\.0\.1:[0-9]+: certificate verify failed: hostname mismatch' 10
grep -a 'hostname mismatch' "$TMP/wrongname.err" | head -n 1

# No client certificate at all.
openssl s_client -connect "127.0.0.1:$TARGET_PORT" -CAfile "$TMP/pki/ca.pem" \
	</dev/null >"$TMP/s_client.out" 2>&1 || true
wait_log "$TMP/tgt.err" 'peer 127\.0\.0\.1:[0-9]+: refused: peer sent no certificate' 10
grep -a 'no certificate' "$TMP/tgt.err" | head -n 1

# A plaintext client speaking our header without TLS.
printf 'QMPX\001\002\000\000aaaaaaaaaaaaaaaa\000\000\000\000hello' \
	>"/dev/tcp/127.0.0.1/$TARGET_PORT"
wait_log "$TMP/tgt.err" 'peer 127\.0\.0\.1:[0-9]+: refused: not a TLS handshake' 10
grep -a 'not a TLS handshake' "$TMP/tgt.err" | head -n 1

# A pinned subject that is not the peer's.
start_sink sinkpin "$TMP/sinkpin.sock" 1
start_target tgtpin "$TMP/sinkpin.sock" --pin-subject CN=somebody-else
start_source pinned "$TMP/pinned.sock" "$TARGET_PORT" --tls-dir "$TMP/pki/source"
if "$PEER" send "$TMP/pinned.sock" pinned 65536 >/dev/null; then
	fail "pinned subject: transfer succeeded"
fi
wait_log "$TMP/tgtpin.err" 'refused: peer subject "CN=source" is not the pinned "CN=somebody-else"' 10
[ -z "$(ls "$TMP/sinkpin.d")" ] || fail "pinned: sink accepted a connection"

# Nothing reached the sink: the first connection it accepts is this one.
[ -z "$(ls "$TMP/sink.d")" ] || fail "sink accepted a connection from a bad peer"
start_source good "$TMP/good.sock" "$main_port" --tls-dir "$TMP/pki/source"
"$PEER" send "$TMP/good.sock" good 65536 >"$TMP/good.send" ||
	fail "good peer after the bad ones: $(cat "$TMP/good.send")"
bg_wait sink 10
read -r tag rest <"$TMP/sink.d/0"
[ "$tag" = good ] || fail "sink's first connection is \"$tag\", not the good peer"
echo "ok: bad peers refused, no byte forwarded"

# A key others may read is refused at start, naming the file.
chmod 644 "$TMP/pki/target/key.pem"
rc=0
"$QMIGRATE" proxy target --listen tls:127.0.0.1:0 --to unix:"$TMP/x.sock" \
	--tls-dir "$TMP/pki/target" 2>"$TMP/mode.err" || rc=$?
[ "$rc" -eq 1 ] || fail "world-readable key: exit status $rc, want 1"
grep -q 'key.pem: mode 0644 lets group or others access the private key' "$TMP/mode.err" ||
	fail "world-readable key: $(cat "$TMP/mode.err")"
echo "ok: world-readable key refused"
