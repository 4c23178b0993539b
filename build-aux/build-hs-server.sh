#!/bin/sh
# Build libgomp-hs-server.a, the host-service server as a library for
# programs without libgomp (the standalone launcher gomp-nvptx-run; other
# launchers), from the same sources libgomp compiles
# (hs-server-sources.sh) and install it with its header into PREFIX.
# The objects are linked into one, in which every global but the
# interface of gomp-hs-server.h and gomp-host-services.h is made local, so
# the library's internals cannot clash with the program's symbols.
# Usage: build-hs-server.sh TOP_SRCDIR GCC_SRC WORKDIR PREFIX
# (GCC_SRC: the patched GCC tree, for libgomp-plugin.h).
set -e
top=$1 gcc_src=$2 work=$3 prefix=$4
cc=${HOST_CC:-gcc-12}
obj=$work/hs-server
rm -rf "$obj"; mkdir -p "$obj" "$prefix/lib" "$prefix/include"
echo "[hs-server] libgomp-hs-server.a"
for f in $("$top/build-aux/hs-server-sources.sh" "$top"); do
  "$cc" -O2 -g -fPIC -Wall -Wextra -Werror -pthread \
    -I"$top/libgomp/server-lib" -I"$top/libgomp" -idirafter "$gcc_src/libgomp" \
    -c "$f" -o "$obj/$(basename "$f" .c).o"
done
ld -r -o "$obj/gomp-hs-server.o" "$obj"/host-*.o "$obj"/target-*.o
cat > "$obj/interface" <<'SYMS'
GOMP_PLUGIN_host_service_size
GOMP_PLUGIN_host_service_alloc
GOMP_PLUGIN_host_service_free
GOMP_PLUGIN_host_service_init
GOMP_PLUGIN_host_service_geometry
GOMP_PLUGIN_host_service_device
GOMP_PLUGIN_host_service_kernel_begin
GOMP_PLUGIN_host_service_kernel_end
GOMP_PLUGIN_host_service_shutdown
GOMP_PLUGIN_host_service_fini
GOMP_PLUGIN_host_service_in_callback
libgomp_host_register
libgomp_host_register_typed
libgomp_host_unregister
libgomp_host_call
SYMS
# The server process (GOMP_HOST_SERVICES_SERVER=process) uses the
# server's internals: it is linked before they are made local.
echo "[hs-server] libexec/gomp-hs/gomp-hs-serve"
mkdir -p "$prefix/libexec/gomp-hs"
"$cc" -O2 -g -Wall -Wextra -Werror -pthread -I"$top/libgomp/server-lib" \
  -I"$top/libgomp" -idirafter "$gcc_src/libgomp" \
  -o "$prefix/libexec/gomp-hs/gomp-hs-serve" \
  "$top/tools/gomp-hs-serve.c" "$obj/gomp-hs-server.o" -ldl
objcopy --keep-global-symbols="$obj/interface" "$obj/gomp-hs-server.o"
# Every name of the interface must be defined: a renamed function would
# otherwise vanish from the library without a word.
nm --defined-only -g "$obj/gomp-hs-server.o" | awk '{ print $3 }' | sort \
  > "$obj/defined"
sort "$obj/interface" | comm -23 - "$obj/defined" > "$obj/missing"
if test -s "$obj/missing"; then
  echo "[hs-server] not defined: $(tr '\n' ' ' < "$obj/missing")" >&2
  exit 1
fi
rm -f "$prefix/lib/libgomp-hs-server.a"
ar rcs "$prefix/lib/libgomp-hs-server.a" "$obj/gomp-hs-server.o"
cp "$top/libgomp/gomp-hs-server.h" "$top/libgomp/gomp-host-services.h" \
  "$top/libgomp/host-service.h" \
  "$prefix/include/"
