#!/bin/sh
# Run a command inside the trixie root of build-aux/trixie-root.sh, with
# /proc, /dev and the given host directories bind-mounted at the same
# paths, and the directory that really holds CUDA's ptxas (that of
# CUDA_BIN, default /usr/local/cuda/bin, when it has one; symbolic links
# and wrapper scripts there are followed) read-only at
# /opt/gomp-hs-cuda/bin, last on PATH, so that the root's own programs are
# never shadowed by what else that directory has.  The mounts are made in
# a mount namespace of their own (unshare), so they end with the command
# whatever becomes of it, and are never seen outside; without unshare
# they are undone when the command ends.  Needs root.
#
# Usage: in-trixie-root.sh ROOT DIR... -- COMMAND [ARG...]
set -e
if test -z "$GOMP_HS_IN_MOUNT_NS" && command -v unshare > /dev/null 2>&1 \
   && unshare --mount --propagation private true 2> /dev/null; then
  GOMP_HS_IN_MOUNT_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
root=$1; shift
case $root in
  /?*) test -d "$root" || { echo "in-trixie-root: no root $root" >&2; exit 2; } ;;
  *) echo "in-trixie-root: ROOT must be an absolute directory, not '$root'" >&2; exit 2 ;;
esac
dirs=
while test $# -gt 0 && test "$1" != --; do dirs="$dirs $1"; shift; done
test "$1" = -- || { echo "in-trixie-root: usage: ROOT DIR... -- COMMAND" >&2; exit 2; }
shift
cuda_bin=${CUDA_BIN:-/usr/local/cuda/bin}
mounted=
cleanup ()
{
  for m in $mounted; do
    umount "$m" 2>/dev/null || umount -R "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
say () { echo "in-trixie-root: $*" >&2; }
bind ()  # SOURCE TARGET [ro]
{
  mkdir -p "$root$2"
  # A mount with mounts below it (/dev, and /proc in a container) may
  # refuse a plain bind where it takes a recursive one.
  mount --bind "$1" "$root$2" 2> /dev/null || mount --rbind "$1" "$root$2" \
    || { say "cannot bind $1 at $root$2"; exit 1; }
  mounted="$root$2 $mounted"
  # Read-only is a safeguard, not a need: where the kernel refuses the
  # remount (flags locked by a container), go on writable.
  test "$3" != ro || mount -o remount,bind,ro "$root$2" 2> /dev/null \
    || say "$1 is bound writable (read-only refused)"
}
# The root a mount point of its own, so that inside it "/" is one: a
# command there may then make a mount namespace of its own (unshare
# makes "/" private, which a chroot's plain directory refuses), as this
# script does when it runs inside a root (tests/native-gcc14.sh).
if ! mountpoint -q "$root"; then
  mount --bind "$root" "$root" || { say "cannot bind $root at itself"; exit 1; }
  mounted=$root
fi
bind /proc /proc; bind /dev /dev
# A plain bind of /dev leaves out the mounts below it; DejaGnu's expect
# needs the pseudo-terminals of /dev/pts to run anything.
if grep -q '^[^ ]* /dev/pts ' /proc/mounts && ! test -e "$root/dev/pts/ptmx"; then
  bind /dev/pts /dev/pts
fi
# The directory of the program that ptxas really is: a wrapper script
# there (exec /usr/local/cuda-13.0/bin/ptxas "$@") would name a path that
# the root lacks (build-aux/real-program.sh).
if test -x "$cuda_bin/ptxas" \
   && real=$("$(dirname "$0")"/real-program.sh "$cuda_bin/ptxas"); then
  bind "$(dirname "$real")" /opt/gomp-hs-cuda/bin ro
fi
for d in $dirs; do d=$(readlink -f "$d"); bind "$d" "$d"; done
st=0
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
  PATH=/usr/bin:/bin:/opt/gomp-hs-cuda/bin "$@" || st=$?
exit $st
