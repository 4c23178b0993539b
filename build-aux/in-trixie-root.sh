#!/bin/sh
# Run a command inside the trixie root of build-aux/trixie-root.sh, with
# /proc, /dev, CUDA's tools (read-only, for ptxas and nvlink) and the given
# host directories bind-mounted at the same paths; the mounts are undone
# when the command ends.  Needs root.
#
# Usage: in-trixie-root.sh ROOT DIR... -- COMMAND [ARG...]
set -e
root=$1; shift
dirs=
while test $# -gt 0 && test "$1" != --; do dirs="$dirs $1"; shift; done
test "$1" = -- || { echo "in-trixie-root: usage: ROOT DIR... -- COMMAND" >&2; exit 2; }
shift
cuda=${CUDA_HOME:-/usr/local/cuda}
mounted=
cleanup () { for m in $mounted; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done; }
trap cleanup EXIT INT TERM
bind ()  # SOURCE [ro]
{
  mkdir -p "$root$1"
  mount --bind "$1" "$root$1"
  test "$2" = ro && mount -o remount,bind,ro "$root$1"
  mounted="$root$1 $mounted"
}
bind /proc; bind /dev
test -d "$cuda/bin" && bind "$(readlink -f "$cuda")" ro
for d in $dirs; do bind "$(readlink -f "$d")"; done
st=0
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
  PATH="$(readlink -f "$cuda" 2>/dev/null)/bin:/usr/bin:/bin" "$@" || st=$?
exit $st
