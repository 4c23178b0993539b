#!/bin/sh
# The manual documents every environment variable the host-service server
# and the nvptx plugin's part read, and it builds.  Environment: TOP, WORK.
texi=$TOP/libgomp/host-services.texi
for v in $(grep -o 'getenv ("GOMP_[A-Z_]*")\|hs_env_ulong ("GOMP_[A-Z_]*"' \
	     "$TOP"/libgomp/host-service*.c "$TOP"/libgomp/plugin/*.c \
	   | grep -o 'GOMP_[A-Z_]*' | sort -u) \
	 GOMP_DEBUG; do
  if grep -q "^@item $v\$" "$texi"; then
    echo "PASS: docs: $v documented"
  else
    echo "FAIL: docs: $v is read by the server but not documented in host-services.texi"
  fi
done
if makeinfo --no-split -I "$TOP/libgomp" -o "$WORK/hs.info" \
     "$TOP/doc/libgomp-host-services.texi" > "$WORK/makeinfo.log" 2>&1; then
  echo "PASS: docs: the manual builds"
else
  echo "FAIL: docs: makeinfo failed"
  cat "$WORK/makeinfo.log"
fi
# ... and every public function of gomp-host-services.h.
for f in $(grep -o 'libgomp_host_[a-z_]* (' "$TOP/libgomp/gomp-host-services.h" \
	     | grep -v 'libgomp_host_fn' | tr -d ' (' | sort -u); do
  if grep -q "^@item .* $f (" "$texi"; then
    echo "PASS: docs: $f documented"
  else
    echo "FAIL: docs: $f is public but not documented in host-services.texi"
  fi
done
