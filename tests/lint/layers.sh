#!/usr/bin/env bash
# Lint: the layers point one way.  Which file uses which file's functions
# and data is read from the built objects (nm: a symbol one object leaves
# undefined and another defines), and that graph must have no cycle, save
# the three the design keeps: qmp/'s private files (the connection, the
# agent framing, the blocking helper and the trace share one struct,
# qmp-private.h), the source table's three files (one table: pre-copy's
# states and the update's, mig-session-source.h) and the command table
# (cmd.c lists the cmd-*.c entries, which report usage errors through
# cmd.c), as tmux's cmd.c does.  A cycle is printed with its files.
set -eu -o pipefail
: "${top_builddir:?top_builddir not set: run the test through make check}"

cd "$top_builddir"
objs=$(find lib qmp proxy src -maxdepth 1 -name '*.o' 2>/dev/null | sort)
[ "$(echo "$objs" | grep -c .)" -gt 50 ] ||
	{ echo "FAIL: no objects under lib qmp proxy src: build first" >&2; exit 1; }

# One line per symbol: "D file sym" where it is defined, "U file sym" where
# it is used.
# shellcheck disable=SC2086 # one word per object (no spaces in the tree)
for o in $objs; do
	nm "$o" | awk -v f="${o%.o}" '
		NF == 3 && $2 ~ /^[TDBRC]$/ { print "D", f, $3 }
		NF == 2 && $1 == "U" { print "U", f, $2 }'
done | awk '
	function allowed(a, b) {
		if (a ~ /^qmp\/qmp-(conn|agent|sync|trace)$/ &&
		    b ~ /^qmp\/qmp-(conn|agent|sync|trace)$/)
			return 1
		if (a ~ /^src\/mig-session-(source|cpr|cpr-exec)$/ &&
		    b ~ /^src\/mig-session-(source|cpr|cpr-exec)$/)
			return 1
		if ((a == "src/cmd" && b ~ /^src\/cmd-/) ||
		    (b == "src/cmd" && a ~ /^src\/cmd-/))
			return 1
		return 0
	}
	$1 == "D" { def[$3] = $2; node[$2] = 1; next }
	{ use[++n] = $2 " " $3; node[$2] = 1 }
	END {
		for (i = 1; i <= n; i++) {
			split(use[i], u, " ")
			if (!(u[2] in def) || def[u[2]] == u[1] ||
			    allowed(u[1], def[u[2]]))
				continue
			e = u[1] SUBSEP def[u[2]]
			if (e in edge)
				continue
			edge[e] = u[2]
			out[u[1]]++
			in_[def[u[2]]]++
		}
		# Peel files that use nobody left, or that nobody left uses:
		# what remains lies on a cycle (or between two).
		do {
			peeled = 0
			for (f in node) {
				if (out[f] > 0 && in_[f] > 0)
					continue
				for (e in edge) {
					split(e, p, SUBSEP)
					if (p[1] == f || p[2] == f) {
						out[p[1]]--
						in_[p[2]]--
						delete edge[e]
					}
				}
				delete node[f]
				peeled = 1
			}
		} while (peeled)
		left = 0
		for (e in edge) {
			split(e, p, SUBSEP)
			printf "FAIL: %s.c uses %s.c (%s)\n", p[1], p[2],
			    edge[e] > "/dev/stderr"
			left++
		}
		if (left > 0) {
			print "FAIL: these uses form a cycle: move what both " \
			    "sides need below them" > "/dev/stderr"
			exit 1
		}
	}'
echo "ok: $(echo "$objs" | wc -l) objects under lib qmp proxy src: no cycle" \
	"but qmp's trio and the command table"
