#!/usr/bin/env bash
# check-tls-expiry.sh: `qmigrate check --tls-dir DIR` says when the node's
# certificate expires (issue 38, "Identity and expiry"), as a migration
# over tls: would load it, beside a real QEMU's guest:
#  - a certificate of a year: "TLS certificate: DATE (DIR/cert.pem),
#    expires in N s (D days)", DATE and N openssl's notAfter, no warning;
#  - one of 3 days: the same and a warning line (within 14 days, the
#    exporter's QmigrateCertificateExpiresSoon), in --json too;
#  - kubelet's Secret layout (..data, keys as links): read through it;
#  - an expired one: exit 1, one line naming DIR/cert.pem and its date,
#    the very words `migrate --to tls:` refuses it with, nothing on stdout,
#    and the guest still running.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/k8s-volume.sh"
need_cmd openssl
setup_tmp

make_pki year
MAKE_CERTS=$top_srcdir/contrib/make-certs.sh
bash "$MAKE_CERTS" --days 3 "$TMP/pki" soon >/dev/null || fail "make-certs.sh --days 3 failed"
bash "$MAKE_CERTS" --expired "$TMP/pki" old >/dev/null || fail "make-certs.sh --expired failed"
start_memguest src 16 0 -qmp "unix:$TMP/src.mon,server=on,wait=off"

# not_after NAME: cert.pem's notAfter as check prints it, and in epoch s.
not_after() {
	local d
	d=$(openssl x509 -noout -enddate -in "$TMP/pki/$1/cert.pem") ||
		fail "openssl cannot read $1's certificate"
	d=${d#notAfter=}
	date -u -d "$d" +%Y-%m-%dT%H:%M:%SZ
	date -u -d "$d" +%s
}

# expires DIR NAME: check's TLS line for DIR (NAME's certificate) must give
# its date and the seconds left, within the seconds this call took.
expires() {
	local dir=$1 name=$2 iso epoch before after line left
	{ read -r iso; read -r epoch; } < <(not_after "$name")
	before=$(date +%s)
	out=$("$QMIGRATE" check --qmp "$TMP/src.qmp" --tls-dir "$dir") ||
		fail "check --tls-dir $dir ($name): exit $?: $out"
	after=$(date +%s)
	line=$(grep '^TLS certificate: ' <<<"$out") || fail "check says nothing of the certificate: $out"
	[[ $line =~ ^"TLS certificate: $iso ($dir/cert.pem), expires in "([0-9]+)" s ("[0-9.]+" days)"$ ]] ||
		fail "$name: \"$line\", expected notAfter $iso"
	left=${BASH_REMATCH[1]}
	[ "$left" -ge $((epoch - after - 1)) ] && [ "$left" -le $((epoch - before)) ] ||
		fail "$name: $left s left, openssl's notAfter is $((epoch - before)) s away"
	echo "ok: $name: $line"
}

# 1. A year: no warning; the conditions are still printed.
expires "$TMP/pki/year" year
grep -q warning <<<"$(grep -A1 '^TLS certificate: ' <<<"$out")" && fail "a year's certificate warned: $out"
grep -q '^LiveMigratable: ' <<<"$out" || fail "check --tls-dir printed no conditions: $out"

# 2. Three days: warned, in text and in --json.
expires "$TMP/pki/soon" soon
grep -qE "^  warning: $TMP/pki/soon/cert\.pem expires within 14 days \(in [23]\.[0-9] days, [0-9T:-]+Z\): renew it$" <<<"$out" ||
	fail "a certificate of 3 days: no warning: $out"
json=$("$QMIGRATE" check --qmp "$TMP/src.qmp" --tls-dir "$TMP/pki/soon" --json) || fail "check --json: exit $?"
jq -e '.tlsCertificate | (.secondsLeft > 2 * 86400) and (.secondsLeft <= 3 * 86400)
	and (.warning | test("expires within 14 days"))' <<<"$json" >/dev/null ||
	fail "--json: $(jq -c .tlsCertificate <<<"$json")"
echo "ok: 3 days left: warned ($(jq -c .tlsCertificate.warning <<<"$json"))"

# 3. kubelet's layout: DIR/cert.pem -> ..data/cert.pem -> ..VERSION/.
k8s_volume "$TMP/secret" -m 0400 ca.pem="$TMP/pki/soon/ca.pem" \
	cert.pem="$TMP/pki/soon/cert.pem" key.pem="$TMP/pki/soon/key.pem"
[ -L "$TMP/secret/cert.pem" ] || fail "k8s_volume made no links: $(ls -la "$TMP/secret")"
expires "$TMP/secret" soon

# 4. Expired: refused before QEMU is asked, as migrate refuses it.
rc=0
"$QMIGRATE" check --qmp "$TMP/src.qmp" --tls-dir "$TMP/pki/old" >"$TMP/old.out" 2>"$TMP/old.err" || rc=$?
[ "$rc" -eq 1 ] || fail "check with an expired certificate: exit $rc, expected 1: $(cat "$TMP/old.err")"
[ "$(wc -l <"$TMP/old.err")" -eq 1 ] || fail "not one line: $(cat "$TMP/old.err")"
[ ! -s "$TMP/old.out" ] || fail "check printed a report beside its refusal: $(cat "$TMP/old.out")"
grep -qE "^qmigrate check: --tls-dir $TMP/pki/old: $TMP/pki/old/cert\.pem: expired on .* 2020 GMT$" "$TMP/old.err" ||
	fail "expired: $(cat "$TMP/old.err")"
rc=0
timeout 30 "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to tls:127.0.0.1:9 \
	--tls-dir "$TMP/pki/old" >/dev/null 2>"$TMP/mig.err" || rc=$?
[ "$rc" -eq 1 ] || fail "migrate with an expired certificate: exit $rc: $(cat "$TMP/mig.err")"
[ "$(sed 's/^qmigrate check: //' "$TMP/old.err")" = "$(sed 's/^qmigrate migrate: //' "$TMP/mig.err")" ] ||
	fail "check said \"$(cat "$TMP/old.err")\", migrate says \"$(cat "$TMP/mig.err")\""
status=$(mon src query-status | jq -r .status)
[ "$status" = running ] || fail "the guest is $status after check and migrate refused"
echo "ok: expired: exit 1, $(cat "$TMP/old.err") (migrate's words); the guest runs"
