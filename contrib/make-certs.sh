#!/bin/sh
# make-certs.sh: a CA and one certificate per node for the qmigrate TLS
# proxy, with the openssl command line.  For tests and small clusters.
#
# usage: make-certs.sh [options] DIR NAME...
#   Creates DIR/ca.pem and DIR/ca-key.pem (unless they exist: then the
#   existing CA signs) and, per NAME, DIR/NAME/{ca.pem,cert.pem,key.pem},
#   a ready --tls-dir.  Subject CN=NAME; SAN DNS:NAME plus IP addresses.
# options:
#   --ip LIST      comma-separated IP addresses for the SAN
#                  (default 127.0.0.1; "none" for no address)
#   --days N       validity of node certificates (default 365)
#   --expired      node certificates valid only in January 2020
#   --ca-days N    validity of a new CA (default 3650)
set -eu

ips=127.0.0.1
days=365
ca_days=3650
expired=0
while [ $# -gt 0 ]; do
	case $1 in
	--ip) ips=$2; shift 2 ;;
	--days) days=$2; shift 2 ;;
	--ca-days) ca_days=$2; shift 2 ;;
	--expired) expired=1; shift ;;
	--) shift; break ;;
	-*) echo "make-certs.sh: unknown option $1" >&2; exit 1 ;;
	*) break ;;
	esac
done
if [ $# -lt 2 ]; then
	echo "usage: make-certs.sh [--ip LIST] [--days N] [--expired] DIR NAME..." >&2
	exit 1
fi
dir=$1; shift
command -v openssl >/dev/null || { echo "make-certs.sh: openssl not found (Debian package openssl)" >&2; exit 1; }
umask 077
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
work=$dir/.ca
mkdir -p "$work/new"
[ -f "$work/index.txt" ] || : > "$work/index.txt"
[ -f "$work/serial" ] || echo 1000 > "$work/serial"

cat > "$work/ca.cnf" <<CNF
[ ca ]
default_ca = qm
[ qm ]
dir = $work
database = $work/index.txt
new_certs_dir = $work/new
serial = $work/serial
certificate = $dir/ca.pem
private_key = $dir/ca-key.pem
default_md = sha256
policy = any
unique_subject = no
copy_extensions = none
[ any ]
commonName = supplied
[ node ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,keyEncipherment
extendedKeyUsage = serverAuth,clientAuth
subjectAltName = \${ENV::QM_SAN}
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
CNF

if [ ! -f "$dir/ca.pem" ]; then
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$dir/ca-key.pem" -out "$dir/ca.pem" -days "$ca_days" \
		-subj "/CN=qmigrate test CA $(basename "$dir")" \
		-addext basicConstraints=critical,CA:TRUE \
		-addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
fi

for name in "$@"; do
	nd=$dir/$name
	mkdir -p "$nd"
	san="DNS:$name"
	if [ "$ips" != none ]; then
		for ip in $(echo "$ips" | tr , ' '); do san="$san,IP:$ip"; done
	fi
	openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$nd/key.pem" -out "$work/$name.csr" -subj "/CN=$name" 2>/dev/null
	if [ $expired = 1 ]; then
		dates="-startdate 20200101000000Z -enddate 20200201000000Z"
	else
		dates="-days $days"
	fi
	# shellcheck disable=SC2086
	QM_SAN=$san openssl ca -batch -notext -config "$work/ca.cnf" \
		-extensions node $dates -in "$work/$name.csr" \
		-out "$nd/cert.pem" 2>"$work/ca.log" || { cat "$work/ca.log" >&2; exit 1; }
	cp "$dir/ca.pem" "$nd/ca.pem"
	chmod 600 "$nd/key.pem"
	chmod 644 "$nd/cert.pem" "$nd/ca.pem"
	rm -f "$work/$name.csr"
done
