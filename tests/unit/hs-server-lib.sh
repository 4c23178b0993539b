#!/bin/sh
# libgomp-hs-server.a, the server as a library (build-aux/build-hs-server.sh):
# a program linked with it and without libgomp serves a simulated device
# (tests/sim/server-lib.c); the library defines exactly the interface of
# gomp-hs-server.h and gomp-host-services.h, and its internals cannot be
# linked against.  Environment: TOP, STAGE, GCC_SRC, WORK, HOST_CC.
cc=${HOST_CC:-gcc-12}
work=$WORK/hs-server-lib
rm -rf "$work"; mkdir -p "$work/files"
lib=$STAGE/lib/libgomp-hs-server.a
if ! test -f "$lib"; then
  echo "FAIL: hs-server-lib: $lib is not installed"
  exit 0
fi
# Only the staged headers and sim-client.h (which needs libgomp-plugin.h).
if "$cc" -O2 -Wall -Wextra -Werror -pthread -I"$STAGE/include" \
     -I"$TOP/tests/sim" -idirafter "$GCC_SRC/libgomp" \
     -o "$work/server-lib" "$TOP/tests/sim/server-lib.c" "$lib" -ldl \
     > "$work/build.log" 2>&1; then
  echo "PASS: hs-server-lib: a program links the library without libgomp"
  if ldd "$work/server-lib" | grep -q libgomp; then
    echo "FAIL: hs-server-lib: the program needs libgomp"
  fi
  "$work/server-lib" "$work/files" > "$work/run.log" 2>&1
  st=$?
  grep -E '^(PASS|FAIL):' "$work/run.log"
  test $st -eq 0 || echo "FAIL: hs-server-lib: exited with status $st"
  grep -q '^hs-server-lib: stdout through the library$' "$work/run.log" \
    && echo "PASS: hs-server-lib: the device's write reached stdout" \
    || echo "FAIL: hs-server-lib: the device's write did not reach stdout"
else
  echo "FAIL: hs-server-lib: the test program does not build"
  cat "$work/build.log"
fi

nm -g --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort > "$work/exported"
printf '%s\n' GOMP_PLUGIN_host_service_size GOMP_PLUGIN_host_service_init \
  GOMP_PLUGIN_host_service_alloc GOMP_PLUGIN_host_service_free \
  GOMP_PLUGIN_host_service_geometry GOMP_PLUGIN_host_service_device \
  GOMP_PLUGIN_host_service_kernel_begin GOMP_PLUGIN_host_service_kernel_end \
  GOMP_PLUGIN_host_service_shutdown GOMP_PLUGIN_host_service_fini \
  GOMP_PLUGIN_host_service_in_callback libgomp_host_register \
  libgomp_host_register_typed libgomp_host_unregister libgomp_host_call \
  | sort > "$work/interface"
if cmp -s "$work/exported" "$work/interface"; then
  echo "PASS: hs-server-lib: exports exactly its interface (15 functions)"
else
  echo "FAIL: hs-server-lib: exports differ from the interface:"
  diff "$work/interface" "$work/exported" | sed 's/^/  /'
fi
# Every declaration of the header is exported.
for f in $(sed -n 's/^extern [^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\) (.*/\1/p' \
	     "$STAGE/include/gomp-hs-server.h"); do
  grep -qx "$f" "$work/exported" \
    || echo "FAIL: hs-server-lib: $f is declared in gomp-hs-server.h but not exported"
done
# Negative: an internal function of the server is not there to link.
cat > "$work/internal.c" <<'C'
extern unsigned gomp_hs_poll_once (void *);
int main (void) { return (int) gomp_hs_poll_once (0); }
C
if ! nm "$lib" | grep -q ' t gomp_hs_poll_once$'; then
  echo "FAIL: hs-server-lib: gomp_hs_poll_once is not in the library as a local function: the probe below proves nothing"
elif "$cc" -o "$work/internal" "$work/internal.c" "$lib" -pthread -ldl \
     > "$work/internal.log" 2>&1; then
  echo "FAIL: hs-server-lib: an internal function (gomp_hs_poll_once) links"
elif grep -q "undefined reference to .gomp_hs_poll_once" "$work/internal.log"; then
  echo "PASS: hs-server-lib: internal functions stay internal"
else
  echo "FAIL: hs-server-lib: the internal-link probe failed for another reason"
  cat "$work/internal.log"
fi
