#!/bin/sh
# The cache of Debian's side of run-upstream.sh's comparison.  What
# Debian's compilers and runtime make of GCC's testsuite depends only on
# Debian's packages, CUDA's ptxas (nvptx-as verifies with it), the
# testsuite, the tests chosen and this harness: none of it is ours.  So
# make check (run-all.sh sets UPSTREAM_STOCK_CACHE) runs Debian's side once
# per such set of inputs and then compares ours with that run's results;
# make check-upstream sets nothing and runs both sides afresh.
#
# Usage:
#   stock-cache.sh key TESTSUITE ISA PRUNE CC CXX FC [RUNTEST-ARG...]
#       print the key: a hash of everything above (the package versions
#       by dpkg-query; the testsuite's files; this directory's scripts and
#       lists; the runtest arguments that choose the tests); exit 1 where
#       it cannot be known (no dpkg-query)
#   stock-cache.sh restore CACHE KEY DIR TESTSUITE
#       copy the cached run into DIR (a side's directory), its paths
#       rewritten for DIR's parent (run-upstream.sh's work directory, which
#       also holds the stock-cc wrapper) and TESTSUITE; exit 1 when there
#       is none
#   stock-cache.sh store CACHE KEY DIR TESTSUITE
#       keep DIR's run, if it is whole (a libgomp.sum with results, no
#       ERROR from runtest, no signal that stopped it)
# The entry is CACHE/KEY: libgomp.sum, libgomp.log,
# runtest.out, seconds, pruned-links.txt and paths (the work directory
# and testsuite it was made in).
here=$(cd "$(dirname "$0")" && pwd)
files="libgomp.sum libgomp.log runtest.out seconds pruned-links.txt"
recipe=1

# Replace every occurrence of the string FROM by TO (no patterns).
subst ()  # FROM TO FILE
{
  LC_ALL=C awk -v from="$1" -v to="$2" '
    { out = ""
      while ((p = index($0, from)) > 0) {
        out = out substr($0, 1, p - 1) to
        $0 = substr($0, p + length(from))
      }
      print out $0 }' "$3" > "$3.tmp" && mv "$3.tmp" "$3"
}

case $1 in
  key)
    shift
    ts=$1 isa=$2 prune=$3 cc=$4 cxx=$5 fc=$6
    shift 6
    command -v dpkg-query > /dev/null 2>&1 || exit 1
    major=$("$cc" -dumpversion 2>/dev/null | sed 's/\..*//')
    test -n "$major" || exit 1
    {
      echo "recipe $recipe isa $isa prune $prune"
      # The compilers as named, and the packages that hold them and what
      # the tests load and run with.
      for t in "$cc" "$cxx" "$fc"; do
	p=$(command -v "$t") && readlink -f "$p" && "$t" --version | head -n 1
      done
      dpkg-query -W -f '${Package} ${Version}\n' "gcc-$major" "g++-$major" \
	"gfortran-$major" "gcc-$major-offload-nvptx" "cpp-$major" libgomp1 \
	libgfortran5 libstdc++6 libgcc-s1 libc6 libc6-dev nvptx-tools \
	dejagnu expect binutils 2> /dev/null
      p=$(command -v ptxas) && readlink -f "$p" && ptxas --version 2>&1
      sha256sum "$here"/*.sh "$here"/*.txt | sed 's,  .*/,  ,'
      (cd "$ts" && find . -type f -print | LC_ALL=C sort \
	 | xargs -d '\n' sha256sum)
      printf '%s\n' "$@"
    } | sha256sum | cut -c1-16
    ;;
  restore)
    cache=$2 key=$3 dir=$4 ts=$5
    entry=$cache/$key
    test -f "$entry/paths" || exit 1
    for f in $files; do
      test -f "$entry/$f" || exit 1
    done
    old_work=$(sed -n 1p "$entry/paths")
    old_ts=$(sed -n 2p "$entry/paths")
    # Copied and rewritten beside DIR first, moved in only when whole: an
    # entry that another run replaces meanwhile leaves DIR as it was.
    tmp=$(mktemp -d "$dir/.restore.XXXXXX") || exit 1
    for f in $files; do
      cp "$entry/$f" "$tmp/$f" || { rm -rf "$tmp"; exit 1; }
    done
    for f in libgomp.sum libgomp.log runtest.out pruned-links.txt; do
      subst "$old_ts" "$ts" "$tmp/$f" \
	&& subst "$old_work" "$(dirname "$dir")" "$tmp/$f" \
	|| { rm -rf "$tmp"; exit 1; }
    done
    for f in $files; do
      mv "$tmp/$f" "$dir/$f" || { rm -rf "$tmp"; exit 1; }
    done
    rmdir "$tmp"
    ;;
  store)
    cache=$2 key=$3 dir=$4 ts=$5
    entry=$cache/$key
    grep -q -E '^(PASS|XFAIL): ' "$dir/libgomp.sum" 2> /dev/null || exit 1
    ! grep -q '^ERROR: ' "$dir/runtest.out" || exit 1
    # A runtest stopped by a signal still writes a summary of what it ran.
    ! grep -q '^got a [A-Z]* signal' "$dir/runtest.out" || exit 1
    mkdir -p "$cache" || exit 1
    tmp=$(mktemp -d "$cache/.$key.XXXXXX") || exit 1
    touch "$dir/pruned-links.txt"
    for f in $files; do
      cp "$dir/$f" "$tmp/$f" || { rm -rf "$tmp"; exit 1; }
    done
    printf '%s\n%s\n' "$(dirname "$dir")" "$ts" > "$tmp/paths"
    # Whole or not at all: the entry appears by one rename.
    rm -rf "$entry"
    mv "$tmp" "$entry" 2> /dev/null || { rm -rf "$tmp"; exit 1; }
    ;;
  *)
    echo "usage: stock-cache.sh key|restore|store ..." >&2
    exit 2
    ;;
esac
