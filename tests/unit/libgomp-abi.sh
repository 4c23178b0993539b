#!/bin/sh
# Our host libgomp.so.1 replaces Debian's libgomp1: it must define every
# symbol, at the same version, that Debian's does, or programs built
# against Debian's (the openacc module's acc_copyin_array_h_ and friends,
# say) fail to link or to load with ours.
# Environment (from tests/run-all.sh): STAGE, HOST_CC.
stage=${STAGE:?}
cc=${HOST_CC:-gcc-12}
ref=$(readlink -f "$($cc -print-file-name=libgomp.so)")
ours=$stage/lib/libgomp.so.1
if ! test -f "$ref" || ! command -v nm > /dev/null 2>&1; then
  echo "UNSUPPORTED: libgomp-abi: no Debian libgomp.so.1 or no nm"
  exit 0
fi
defs () { nm -D --defined-only "$1" | awk '{ print $NF }' | sort -u; }
missing=$(defs "$ref" > "${TMPDIR:-/tmp}/abi-ref.$$"; defs "$ours" \
  | comm -23 "${TMPDIR:-/tmp}/abi-ref.$$" -; rm -f "${TMPDIR:-/tmp}/abi-ref.$$")
n=$(printf '%s' "$missing" | grep -c .)
if test "$n" -eq 0; then
  echo "PASS: libgomp-abi: libgomp.so.1 defines every symbol@version of $ref ($(defs "$ref" | wc -l))"
else
  echo "FAIL: libgomp-abi: libgomp.so.1 lacks $n symbols of $ref: $(echo $missing | cut -c1-300)"
fi
