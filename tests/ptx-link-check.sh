#!/bin/sh
# The tests' check that PTX is valid: each module assembled by ptxas for
# ARCH, then all of them linked by nvlink into OUT, as the CUDA driver
# would.  Usage: ptx-link-check.sh ARCH OUT MODULE...
# Environment:
#   PTXAS, NVLINK     CUDA's tools (both needed)
#   GOMP_PTXAS_MEMO   a directory (optional): ptxas's output for a module
#                     is kept there under a hash of what decides it (the
#                     module's text, ARCH, and what "ptxas --version"
#                     says), and a module seen before is not assembled
#                     again.  The device libraries' modules are the same
#                     in every test program (in make check, 3146 modules
#                     of 38 DejaGnu tests were 315 different ones), so
#                     nearly all of ptxas's time goes.  Only what ptxas
#                     accepted is kept: a module it rejects is assembled
#                     every time, and its error shown.
# Output: nothing, status 0 when every module assembles and they link;
# otherwise one line, "ptxas MODULE: ERROR" or "nvlink: ERROR" (the
# tool's first line of output), and status 1.  Each MODULE.cubin is left
# beside its module.
arch=$1 out=$2
shift 2
test -n "$PTXAS" && test -n "$NVLINK" || { echo "no ptxas/nvlink"; exit 1; }
memo=$GOMP_PTXAS_MEMO
if test -n "$memo"; then
  mkdir -p "$memo" 2> /dev/null || memo=
  id=$("$PTXAS" --version 2> /dev/null) || memo=
fi
# A cubin is an ELF file: anything else kept under a key (an empty file,
# left by a crash or made by a prune racing a use) is no hit.
is_cubin () { test -s "$1" && test "$(head -c 4 "$1" | tr -d '\177')" = ELF; }
for m in "$@"; do
  k=
  if test -n "$memo"; then
    k=$({ printf 'ptx-link-check 1 %s\n%s\n' "$arch" "$id"; cat "$m"; } \
	  | sha256sum | cut -c1-32)
    case $k in
      *[!0-9a-f]*) k= ;;
      ????????????????????????????????) ;;
      *) k= ;;
    esac
  fi
  if test -n "$k" && is_cubin "$memo/$k.cubin" \
     && cp "$memo/$k.cubin" "$m.cubin" 2> /dev/null; then
    # Kept entries are pruned by age (tests/run-all.sh): mark the use,
    # creating nothing.
    touch -c "$memo/$k.cubin" 2> /dev/null
    continue
  fi
  if ! "$PTXAS" -arch="$arch" -c "$m" -o "$m.cubin" > "$m.log" 2>&1; then
    echo "ptxas $(basename "$m"): $(grep -m 1 . "$m.log")"
    exit 1
  fi
  # One rename: a run beside this one sees the whole file or none.
  if test -n "$k" && is_cubin "$m.cubin" \
     && t=$(mktemp "$memo/.$k.XXXXXX" 2> /dev/null); then
    cp "$m.cubin" "$t" && mv -f "$t" "$memo/$k.cubin" || rm -f "$t"
  fi
done
for m in "$@"; do
  set -- "$@" "$m.cubin"
  shift
done
if ! "$NVLINK" -arch="$arch" "$@" -o "$out" > "$out.log" 2>&1; then
  echo "nvlink: $(grep -v -m 1 -i '^nvlink warning' "$out.log" || head -n 1 "$out.log")"
  exit 1
fi
exit 0
