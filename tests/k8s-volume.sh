# tests/k8s-volume.sh: k8s_volume, sourced by tests that need a directory
# laid out as kubelet projects a Secret (or ConfigMap) volume into a pod.
# Written from kubernetes' pkg/volume/util/atomic_writer.go (AtomicWriter.
# Write) and pkg/volume/volume_linux.go (SetVolumeOwnership), as
# ../shared/reference/runtimes-here.md item 4 describes them:
#
#   DIR/..2026_12_02_04_30_12.2941043077/KEY   the data, mode MODE (the
#                                              volume's defaultMode, 0644)
#   DIR/..data -> ..2026_12_02_04_30_12.2941043077
#   DIR/KEY    -> ..data/KEY                   (a/b: DIR/a -> ..data/a)
#
# k8s_volume DIR [-m MODE] [-g FSGROUP] KEY=FILE...
# -g GID, the pod's fsGroup: every entry chgrp GID, files mode|0440,
# directories mode|02550 (a read-only volume's roMask and setgid).
# A second call on DIR is kubelet's update of the Secret: a new version
# directory, the link ..data_tmp renamed onto ..data (atomic), links of
# keys that left pruned, the old version removed.  DIR's own mode is left
# alone (kubelet's Secret volume is a tmpfs, 1777).
k8s_volume() {
	local dir=$1 mode=0644 gid= kv key top ts old o OPTIND=1
	shift
	while getopts m:g: o; do
		case $o in
		m) mode=$OPTARG ;;
		g) gid=$OPTARG ;;
		*) return 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	mkdir -p "$dir" || return
	old=$(readlink "$dir/..data" 2>/dev/null) || old=
	# newTimestampDir: os.MkdirTemp(dir, "..2006_01_02_15_04_05."), 0755.
	ts=..$(date -u +%Y_%m_%d_%H_%M_%S).$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	mkdir -m 0755 "$dir/$ts" || return
	# writePayloadToDir: each key written, then chmod'ed to its mode.
	for kv; do
		key=${kv%%=*}
		mkdir -p "$dir/$ts/$(dirname "$key")" &&
			cp -- "${kv#*=}" "$dir/$ts/$key" &&
			chmod "$mode" "$dir/$ts/$key" || return
	done
	if [ -n "$gid" ]; then
		chgrp -hR "$gid" "$dir" &&
			find "$dir" -type f -exec chmod g+r {} + &&
			find "$dir" -type d -exec chmod g+rxs {} + || return
	fi
	# Steps 8 and 9: ..data_tmp -> the new version, renamed onto ..data.
	ln -s "$ts" "$dir/..data_tmp" && mv -T "$dir/..data_tmp" "$dir/..data" || return
	# createUserVisibleFiles: KEY -> ..data/KEY, for the first component.
	for kv; do
		top=${kv%%=*}
		top=${top%%/*}
		[ -L "$dir/$top" ] || ln -s "..data/$top" "$dir/$top" || return
	done
	# removeUserVisiblePaths: the links whose key left with the update.
	for key in "$dir"/*; do
		if [ -L "$key" ] && [ ! -e "$key" ]; then rm -f "$key"; fi
	done
	if [ -n "$old" ] && [ "$old" != "$ts" ]; then rm -rf "${dir:?}/$old"; fi
}
