#!/bin/sh
# Delete the object of each NAME from an archive, whatever prefix the
# library's build gives its members (newlib 3.3: lib_a-NAME.o, newlib 4.x:
# libc_a-NAME.o, or plain NAME.o), and fail loudly when a NAME matches no
# member or more than one, or is still there afterwards: "ar d" of a
# missing member succeeds silently, which once left newlib 4.5's vprintf
# and lock stubs in place without a word.
#
# Usage: ar-drop-member.sh AR ARCHIVE NAME...
set -e
ar=$1
archive=$2
shift 2
for name in "$@"; do
  members=$("$ar" t "$archive" | grep -E "^([A-Za-z0-9_]+-)?$name\.o\$" || true)
  n=$(printf '%s' "$members" | grep -c . || true)
  if test "$n" -ne 1; then
    echo "ar-drop-member: $archive: $n members for $name${members:+: $(echo $members)}" >&2
    exit 1
  fi
  "$ar" d "$archive" "$members"
  if "$ar" t "$archive" | grep -qx "$members"; then
    echo "ar-drop-member: $archive: $members still there after ar d" >&2
    exit 1
  fi
  echo "ar-drop-member: $archive: dropped $members" >&2
done
