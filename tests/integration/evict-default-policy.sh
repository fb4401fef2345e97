#!/usr/bin/env bash
# evict-default-policy.sh: evict and drain without --policy read the
# default policy directory /etc/qmigrate/policies.d once and take both the
# eviction strategy and the migration settings from it: the policy that
# chose LiveMigrate is the one whose bandwidth and controller QEMU and the
# status document show.  migrate, incoming and check read the same
# directory (issue 38: they used KubeVirt's defaults while policy explain
# said the directory's policy applies).  The directory is the test's own: a private mount
# namespace overlays /etc (the real one is untouched) and binds
# $TMP/policies.d at /etc/qmigrate/policies.d.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd unshare mount
setup_tmp

mkdir "$TMP/policies.d" "$TMP/etc-up" "$TMP/etc-work"
cat >"$TMP/policies.d/site.json" <<JSON
{ "name": "site-default", "evictionStrategy": "LiveMigrate",
  "migration": { "bandwidthPerMigration": "48Mi", "convergence": "kubevirt" } }
JSON
want_bw=$((48 * 1024 * 1024))

# with_site_policies CMD...: runs CMD (exec: same pid) where
# /etc/qmigrate/policies.d is $TMP/policies.d.
with_site_policies() {
	unshare -m --propagation private sh -ec '
		mount -t overlay overlay -o "lowerdir=/etc,upperdir=$1,workdir=$2" /etc
		mkdir -p /etc/qmigrate/policies.d
		mount --bind "$3" /etc/qmigrate/policies.d
		shift 3
		exec "$@"' sh "$TMP/etc-up" "$TMP/etc-work" "$TMP/policies.d" "$@"
}
with_site_policies "$QMIGRATE" policy explain | grep -q 'policy "site-default"' ||
	fail "the namespace does not show the test's policies: $(with_site_policies "$QMIGRATE" policy explain 2>&1)"
[ ! -e /etc/qmigrate/policies.d/site.json ] || fail "the real /etc was written"

# used_site_policy STATUS SRC: the status says the site policy chose the
# strategy and gave the settings, and QEMU SRC migrated with them.
used_site_policy() {
	local st=$1 v
	[ "$(status_get "$st" .eviction.strategy)" = LiveMigrate ] ||
		fail "$st: strategy $(status_get "$st" .eviction.strategy)"
	[ "$(status_get "$st" .eviction.policy)" = site-default ] ||
		fail "$st: eviction.policy $(status_get "$st" .eviction.policy)"
	[ "$(status_get "$st" .migrationPolicyName)" = site-default ] ||
		fail "$st: the migration's policy is $(status_get "$st" .migrationPolicyName), not the one that chose the strategy"
	v=$(status_get "$st" .migrationConfiguration.bandwidthPerMigration)
	[ "$v" = "$want_bw" ] || fail "$st: bandwidthPerMigration $v, expected $want_bw"
	[ "$(status_get "$st" .controller)" = kubevirt ] ||
		fail "$st: controller $(status_get "$st" .controller)"
	v=$(mon "$2" query-migrate-parameters | jq -r '."max-bandwidth"')
	[ "$v" = "$want_bw" ] || fail "$2: QEMU's max-bandwidth $v, expected $want_bw"
}

# evict: one VM.
mig_start_pair 32 10
mig_incoming
rc=0
with_site_policies "$QMIGRATE" evict --qmp "$TMP/src.qmp" \
	--to "unix:$TMP/mig.sock" --status-file "$TMP/evict.status" \
	>"$TMP/evict.out" 2>"$TMP/evict.err" || rc=$?
[ "$rc" -eq 0 ] || fail "evict: exit $rc: $(cat "$TMP/evict.err")"
expect_exit incoming 0 30
used_site_policy "$TMP/evict.status" src
assert_moved

# drain: its evict children read the same directory the same way.
PAIR=b-
mig_start_pair 32 10
mig_incoming
echo "[{\"name\": \"vm\", \"qmp\": \"$TMP/b-src.qmp\", \"to\": \"unix:$TMP/b-mig.sock\",
  \"statusFile\": \"$TMP/drain.status\"}]" >"$TMP/inventory.json"
rc=0
with_site_policies "$QMIGRATE" drain --inventory "$TMP/inventory.json" \
	--slot-dir "$TMP/slots" >"$TMP/drain.out" 2>"$TMP/drain.err" || rc=$?
[ "$rc" -eq 0 ] || fail "drain: exit $rc: $(cat "$TMP/drain.out" "$TMP/drain.err")"
grep -q '^drain: 1 VMs: 1 migrated' "$TMP/drain.out" || fail "drain: $(cat "$TMP/drain.out")"
expect_exit b-incoming 0 30
used_site_policy "$TMP/drain.status" b-src
assert_moved

# migrate and incoming: the same policy, without --policy either.
PAIR=c-
mig_start_pair 32 10
bg_start c-incoming with_site_policies "$QMIGRATE" incoming --qmp "$TMP/c-dst.qmp" \
	--listen "unix:$TMP/c-mig.sock" --status-file "$TMP/c-dst.status"
wait_for 30 "c-dst prepared" status_is "$TMP/c-dst.status" .phase TargetReady
rc=0
with_site_policies "$QMIGRATE" migrate --qmp "$TMP/c-src.qmp" \
	--to "unix:$TMP/c-mig.sock" --status-file "$TMP/c-src.status" \
	>"$TMP/c-migrate.out" 2>"$TMP/c-migrate.err" || rc=$?
[ "$rc" -eq 0 ] || fail "migrate: exit $rc: $(cat "$TMP/c-migrate.err")"
expect_exit c-incoming 0 30
for st in "$TMP/c-src.status" "$TMP/c-dst.status"; do
	[ "$(status_get "$st" .migrationPolicyName)" = site-default ] ||
		fail "$st: policy $(status_get "$st" .migrationPolicyName), not the default directory's"
done
v=$(status_get "$TMP/c-src.status" .migrationConfiguration.bandwidthPerMigration)
[ "$v" = "$want_bw" ] || fail "migrate: bandwidthPerMigration $v, expected $want_bw"
assert_moved

# check: names the policy that applies.
v=$(with_site_policies "$QMIGRATE" check --qmp "$TMP/c-dst.qmp" --json | jq -r .policy)
[ "$v" = site-default ] || fail "check: policy $v, not the default directory's"
echo "PASS: evict, drain, migrate, incoming and check took their settings from the default directory's one policy"
