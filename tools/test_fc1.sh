#!/usr/bin/env bash
# `make test-fc1`: the whole test suite on FreeCAD 1.x, in a Debian 13 (trixie) chroot.
#
#   tools/test_fc1.sh                 make setup + make test inside the chroot
#   tools/test_fc1.sh addon           make setup + make test-addon inside the chroot
#   tools/test_fc1.sh shell CMD...    run CMD in the chroot's copy of the repository
#   tools/test_fc1.sh fixtures        rebuild the FreeCAD 1.x Assembly test documents
#                                     (tests/app/fixtures/make_fc1_assemblies.py) and copy
#                                     them back into this repository
#
# Runs as root (debootstrap, chroot, mounts). Stages, each timed:
#   bootstrap  debootstrap a minimal trixie into $SIMPHANT_FC1_ROOT, only when it is missing
#              or was left incomplete (default /var/cache/simphant/debian13: outside the
#              checkout, so fresh clones on the same machine reuse it)
#   configure  apt sources (the host's own mirror), DNS, pip configuration and certificates,
#              refreshed on every run
#   copy       this working tree into the chroot (/srv/simphant); numba's cache is kept
#   setup      `make setup` inside: the repository's own tools/setup_env.sh (apt packages,
#              numba, the Mod link); a no-op when nothing is missing
#   test       `make test` inside (solver, headless FreeCAD and GUI tiers; PYTEST_ARGS passed)
#
# Isolation: runs on one chroot take turns (flock on $SIMPHANT_FC1_ROOT.lock). Everything
# inside runs in a private mount and PID namespace (unshare). The mounts
# (/proc, /sys, /dev, /dev/pts, /dev/shm) are never visible on the host, are unmounted by a
# trap, and vanish with the namespace anyway; when the namespace's first process ends the
# kernel ends every process left in it, so nothing keeps running inside the chroot.
#
# Environment: SIMPHANT_FC1_ROOT (chroot directory), SIMPHANT_FC1_SUITE (default trixie),
# SIMPHANT_FC1_MIRROR / SIMPHANT_FC1_SECURITY_MIRROR (default: the host's apt configuration),
# SIMPHANT_FC1_UPGRADE=1 (apt-get upgrade inside before the setup), PYTEST_ARGS.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
CHROOT=${SIMPHANT_FC1_ROOT:-/var/cache/simphant/debian13}
SUITE=${SIMPHANT_FC1_SUITE:-trixie}
SRC=/srv/simphant                 # the repository's copy, as the chroot sees it
READY="$CHROOT/.simphant-bootstrap-complete"
CHROOT_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

log() { echo "[test-fc1] $*" >&2; }
die() { log "error: $*"; exit 1; }

# ------------------------------------------------------------------------ stage timing
TIMES=()
CURRENT=""
T0=0
stage() {   # stage NAME CMD...: run CMD (a failure ends the script), record its wall time
    CURRENT=$1
    shift
    T0=$(date +%s)
    log "stage $CURRENT ..."
    "$@"
    TIMES+=("$(printf '%-10s %5d s' "$CURRENT" "$(( $(date +%s) - T0 ))")")
    log "stage $CURRENT: $(( $(date +%s) - T0 )) s"
    CURRENT=""
}
print_times() {
    local rc=$? t
    [ -z "$CURRENT" ] || TIMES+=("$(printf '%-10s %5d s  (failed, exit %d)' "$CURRENT" "$(( $(date +%s) - T0 ))" "$rc")")
    log "stage times (chroot $CHROOT):"
    for t in "${TIMES[@]}"; do log "  $t"; done
    exit $rc
}

# ------------------------------------------------------------------------ host side helpers
host_mirror() {   # host_mirror [security]: first matching URI of the host's apt configuration
    local want=$1 uri
    uri=$( { grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}'
             grep -h '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
                 | sed 's/\[[^]]*\]//' | awk '{print $2}'; } | awk -v w="$want" '
        w == "security" && /security/ { print; exit }
        w != "security" && !/security/ { print; exit }')
    echo "$uri"
}

assert_nothing_mounted() {   # refuse to delete a directory with anything mounted below it
    local dir=$1
    if [ -e "$dir" ] && findmnt -R -n -o TARGET 2>/dev/null | grep -q "^$(readlink -f "$dir")\(/\|$\)"; then
        die "something is mounted below $dir (findmnt -R): not touching it"
    fi
}

in_namespace() {   # in_namespace CMD...: CMD in a private mount + PID namespace
    unshare --mount --pid --fork --kill-child --propagation private "$@"
}

bootstrap() {
    if [ -f "$READY" ]; then
        log "reusing $CHROOT ($(cat "$READY"))"
        return 0
    fi
    command -v debootstrap >/dev/null || {
        log "installing debootstrap on the host"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >&2 \
            || { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive \
                 apt-get install -y -q --no-install-recommends debootstrap >&2; }
    }
    local mirror=${SIMPHANT_FC1_MIRROR:-$(host_mirror main)}
    [ -n "$mirror" ] || die "no Debian mirror in the host's apt configuration (set SIMPHANT_FC1_MIRROR)"
    if [ -e "$CHROOT" ]; then           # an interrupted earlier bootstrap: start again
        assert_nothing_mounted "$CHROOT"
        log "removing the incomplete $CHROOT"
        rm -rf --one-file-system "$CHROOT"
    fi
    mkdir -p "$CHROOT"
    log "debootstrap $SUITE into $CHROOT"
    # make + certificates: only what it takes to run `make setup` (which installs the rest)
    in_namespace debootstrap --variant=minbase --include=make,ca-certificates \
        "$SUITE" "$CHROOT" "$mirror" >&2
    echo "$SUITE $(date -u +%Y-%m-%dT%H:%MZ)" > "$READY"
}

configure() {
    local mirror=${SIMPHANT_FC1_MIRROR:-$(host_mirror main)}
    local security=${SIMPHANT_FC1_SECURITY_MIRROR:-$(host_mirror security)}
    {
        echo "deb $mirror $SUITE main"
        echo "deb $mirror $SUITE-updates main"
        [ -z "$security" ] || echo "deb $security $SUITE-security main"
    } > "$CHROOT/etc/apt/sources.list.new"
    if ! cmp -s "$CHROOT/etc/apt/sources.list.new" "$CHROOT/etc/apt/sources.list"; then
        mv "$CHROOT/etc/apt/sources.list.new" "$CHROOT/etc/apt/sources.list"
        rm -f "$CHROOT/var/lib/apt/lists/"*_Packages "$CHROOT/var/lib/apt/lists/"*Release* 2>/dev/null || true
        log "apt sources changed: the package lists are refreshed by the setup"
    else
        rm -f "$CHROOT/etc/apt/sources.list.new"
    fi
    cp -L /etc/resolv.conf "$CHROOT/etc/resolv.conf"
    [ ! -f /etc/pip.conf ] || cp /etc/pip.conf "$CHROOT/etc/pip.conf"
    if [ -d /usr/local/share/ca-certificates ]; then
        mkdir -p "$CHROOT/usr/local/share/ca-certificates"
        cp -r /usr/local/share/ca-certificates/. "$CHROOT/usr/local/share/ca-certificates/"
    fi
    echo "simphant-fc1" > "$CHROOT/etc/debian_chroot"
}

copy_tree() {   # the working tree (committed or not), without .git and outputs
    local dst="$CHROOT$SRC"
    assert_nothing_mounted "$dst"
    mkdir -p "$dst"
    # keep numba's on-disk cache (__pycache__): its entries are keyed by source time stamps,
    # which tar preserves, so unchanged kernels are not compiled again
    find "$dst" -mindepth 1 \( -name __pycache__ -prune \) -o \( ! -type d -print0 \) \
        | xargs -0 -r rm -f
    local inner=""          # a chroot kept inside the working tree is not copied into itself
    case $(readlink -f "$CHROOT") in "$here"/*) inner="--exclude=./${CHROOT#"$here"/}" ;; esac
    tar -C "$here" ${inner:+"$inner"} --exclude=./.git --exclude=./out --exclude=./.simphant-env \
        --exclude=__pycache__ --exclude=.pytest_cache --exclude=./bench/.deps -cf - . \
        | tar -C "$dst" -xf -
}

# ------------------------------------------------------------------------ inside the namespace
chroot_env() {   # the environment a command inside the chroot gets
    local v
    echo "HOME=/root"
    echo "PATH=$CHROOT_PATH"
    echo "LANG=C.UTF-8"
    echo "DEBIAN_FRONTEND=noninteractive"
    echo "SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt"
    echo "SSL_CERT_DIR=/etc/ssl/certs"
    echo "REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt"
    echo "PIP_CERT=/etc/ssl/certs/ca-certificates.crt"
    for v in $(compgen -e); do
        case $v in
            PIP_CERT|PIP_FIND_LINKS) ;;            # host paths
            PIP_*|http_proxy|https_proxy|no_proxy|HTTP_PROXY|HTTPS_PROXY|NO_PROXY)
                echo "$v=${!v}" ;;
        esac
    done
    [ -z "${PYTEST_ARGS:-}" ] || echo "PYTEST_ARGS=$PYTEST_ARGS"
}

inside() {   # inside CMD-STRING: bash -c CMD-STRING in the chroot, in $SRC
    local -a envv
    mapfile -t envv < <(chroot_env)
    chroot "$CHROOT" /usr/bin/env -i "${envv[@]}" /bin/bash -c "cd $SRC && $1"
}

# what `make setup` manages: Debian packages, numba in AdditionalPythonPackages, the Mod link,
# the environment it prints
FC_DATA=/root/.local/share/FreeCAD
FINGERPRINT="{ dpkg-query -W; cat .simphant-env;
               find $FC_DATA/AdditionalPythonPackages $FC_DATA/Mod -printf '%p %s %T@ %l\\n' | sort; }"

MOUNTED=()
unmount_all() {
    local i
    for (( i=${#MOUNTED[@]}-1; i>=0; i-- )); do
        umount "${MOUNTED[$i]}" 2>/dev/null || umount -l "${MOUNTED[$i]}" 2>/dev/null || true
    done
    MOUNTED=()
}
mount_one() {   # mount_one TARGET MOUNT-ARGS...
    local target=$1
    shift
    mount "$@" "$target"
    MOUNTED+=("$target")
}

namespace_main() {   # runs as PID 1 of a private PID + mount namespace
    trap unmount_all EXIT
    trap 'exit 130' INT TERM
    mount --make-rprivate /
    mount_one "$CHROOT/proc" -t proc proc
    mount_one "$CHROOT/sys" --bind /sys
    mount_one "$CHROOT/dev" --bind /dev
    mount_one "$CHROOT/dev/pts" --bind /dev/pts
    mkdir -p "$CHROOT/dev/shm"
    mount_one "$CHROOT/dev/shm" -t tmpfs -o mode=1777,nosuid,nodev shm
    local mode=$1
    shift
    case $mode in
        ca)
            inside "update-ca-certificates >/dev/null" ;;
        upgrade)
            inside "apt-get update -q && apt-get -y -q upgrade" ;;
        setup)
            inside "make setup && echo && cat .simphant-env" ;;
        setup-again)    # a second `make setup` must change nothing
            inside "$FINGERPRINT > /tmp/simphant-setup.1 && make setup &&
                    $FINGERPRINT > /tmp/simphant-setup.2 &&
                    if cmp -s /tmp/simphant-setup.1 /tmp/simphant-setup.2; then
                        echo 'second make setup: nothing changed'
                    else
                        echo 'second make setup changed:'; diff /tmp/simphant-setup.1 /tmp/simphant-setup.2
                        exit 1
                    fi" ;;
        test)
            inside "make test" ;;
        addon)
            inside "make test-addon" ;;
        shell)
            inside "$*" ;;
    esac
}

if [ "${1:-}" = "--namespace" ]; then
    shift
    namespace_main "$@"
    exit $?
fi

# ------------------------------------------------------------------------ host side main
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot and mounts); run it as root"
command -v unshare >/dev/null || die "unshare (util-linux) is missing"
trap print_times EXIT

# one run at a time per chroot (CI jobs in several clones on one machine share it)
mkdir -p "$(dirname "$CHROOT")"
exec 9> "$CHROOT.lock"
flock -n 9 || { log "waiting for another run on $CHROOT"; flock 9; }

run_ns() { in_namespace "$0" --namespace "$@"; }

mode=${1:-test}
[ $# -eq 0 ] || shift
stage bootstrap bootstrap
stage configure configure
stage copy copy_tree
stage certs run_ns ca
[ "${SIMPHANT_FC1_UPGRADE:-0}" != 1 ] || stage upgrade run_ns upgrade
stage setup run_ns setup
stage setup-again run_ns setup-again
case $mode in
    test)
        stage test run_ns test ;;
    addon)
        stage addon run_ns addon ;;
    shell)
        stage shell run_ns shell "$@" ;;
    fixtures)
        stage fixtures run_ns shell \
            "cd tests/app/fixtures && rm -f fc1_*.FCStd && freecadcmd make_fc1_assemblies.py" \
            "&& test \$(ls fc1_*.FCStd | wc -l) -eq 8"
        cp -v "$CHROOT$SRC"/tests/app/fixtures/fc1_*.FCStd "$here/tests/app/fixtures/" >&2 ;;
    *)
        die "unknown mode '$mode' (test, addon, shell, fixtures)" ;;
esac
