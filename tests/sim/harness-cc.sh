#!/bin/sh
# Build a test harness as "CC ARG... -o OUT" would, but compile each C
# source among the ARGs on its own, through ccache when the build caches
# are on (build-aux/build-caches.sh, hs_ccache), then link: the harnesses
# of tests/unit compile the same server sources many times over (plain,
# with each sanitizer, against each GCC's headers), and a warm run then
# compiles only what changed.
# Usage: harness-cc.sh CC OUT ARG...
#   An ARG ending in .c is a source; -l, -L and -Wl, options and other
#   files are for the link only; every other option is for both, with
#   the word after -idirafter, -isystem, -iquote, -include, -I, -D and -U
#   given alone.  The objects go in OUT.objs/.  The status is the first
#   failing step's.
top=$(cd "$(dirname "$0")/../.." && pwd)
cc=$1
out=$2
shift 2
. "$top/build-aux/build-caches.sh"
hs_ccache "$top"
objs=$out.objs
rm -rf "$objs"; mkdir -p "$objs" || exit 1
# The options for compiling, as one word each (none has a blank in it
# here: the harnesses pass include directories without).
copts=
next=
for a do
  if test -n "$next"; then
    copts="$copts $a"
    next=
    continue
  fi
  case $a in
    -idirafter|-isystem|-iquote|-include|-I|-D|-U) copts="$copts $a" next=1 ;;
    -l*|-L*|-Wl,*) ;;
    -*) copts="$copts $a" ;;
  esac
done
n=0
for a do
  shift
  case $a in
    *.c)
      n=$((n + 1))
      o=$objs/$n-$(basename "$a" .c).o
      # shellcheck disable=SC2086
      $ccache "$cc" $copts -c -o "$o" "$a" || exit $?
      set -- "$@" "$o" ;;
    *) set -- "$@" "$a" ;;
  esac
done
exec "$cc" -o "$out" "$@"
