#!/bin/sh
# Makes the NATS cluster's certificates with openssl: a CA of this deployment and one certificate its three
# nodes share (server and client use, for the routes' mutual TLS), valid for nats-1..3 and localhost.
#   sh deploy/nats/make-certs.sh [directory] [extra subjectAltName, e.g. DNS:nats.internal or IP:10.0.0.5]...
# Writes ca.pem, ca-key.pem, server.pem, server-key.pem into the directory (default deploy/nats/certs, which
# git ignores). Keep ca-key.pem off the servers; the API servers need only ca.pem (NATS_TLS_CA).
set -eu
dir=${1:-$(dirname "$0")/certs}
[ $# -gt 0 ] && shift
san="DNS:nats-1,DNS:nats-2,DNS:nats-3,DNS:localhost,IP:127.0.0.1"
for extra in "$@"; do san="$san,$extra"; done
mkdir -p "$dir"
umask 077
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 825 -subj "/CN=svc NATS CA" \
  -keyout "$dir/ca-key.pem" -out "$dir/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=svc NATS" \
  -keyout "$dir/server-key.pem" -out "$dir/server.csr" 2>/dev/null
printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth,clientAuth\nbasicConstraints=CA:FALSE\n' "$san" \
  >"$dir/server.ext"
openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca-key.pem" -CAcreateserial -days 825 \
  -extfile "$dir/server.ext" -out "$dir/server.pem" 2>/dev/null
rm -f "$dir/server.csr" "$dir/server.ext" "$dir/ca.srl"
# The NATS and API containers read these as another user than the one running this script.
chmod 644 "$dir/ca.pem" "$dir/server.pem" "$dir/server-key.pem"
echo "certificates in $dir"
