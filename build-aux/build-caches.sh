# Sourced by the library build scripts (build-libgomp-host.sh,
# build-libgomp-nvptx.sh, build-libgfortran-nvptx.sh): two caches for the
# parts of those builds that a new checkout repeats although their
# inputs did not change, both in the build cache (GOMP_HS_CACHE, default
# ~/.cache/libgomp-host-services).  GOMP_HS_BUILD_CACHES=no turns both
# off.
#
# 1. ccache, when it is installed, in front of the compilers: a compile
#    is reused only when ccache finds the same compiler, options and
#    preprocessed input.  Paths under the build directory are hashed
#    relative to the compile's directory (base_dir), and the directory
#    itself is not hashed, so that another checkout's build hits;
#    debug info then names the directory of the first compile.
# 2. configure's own cache file (--cache-file), one per configure and
#    key: the configure script and config.sub, every argument (compiler
#    lines included: the nvptx compiler's and newlib's prefixes are
#    content-keyed), the environment configure reads, the versions of
#    the Debian packages it probes, and what the caller adds (the symbols
#    of libraries that configure's link tests use).  A cache is stored
#    only after configure succeeded.
#
# Functions:
#   hs_ccache BASEDIR   set ccache to "ccache " (or nothing), configured
#                       for compiles under BASEDIR
#   hs_configure_env    print the environment configure reads (for keys)
#   hs_configure NAME OBJDIR SRCDIR BASEDIR KEYTEXT LOG CONFIGURE [ARG...]
#                       run CONFIGURE ARG... in OBJDIR, output to LOG, with
#                       the stored cache for this key when there is one
#                       (and again without it, should configure fail with
#                       it); store the cache after a success.  BASEDIR
#                       (the checkout's build directory's parent) is a
#                       placeholder in the key and the stored cache, so
#                       that a checkout at another path finds it, with
#                       its own paths put back.  Returns configure's
#                       status.

hs_cache_dir=${GOMP_HS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libgomp-host-services}
# Bump when the way a key is made changes.
hs_configure_cache_recipe=1

hs_ccache ()
{
  ccache=
  test "${GOMP_HS_BUILD_CACHES:-yes}" = no && return 0
  command -v ccache > /dev/null 2>&1 || return 0
  CCACHE_DIR=${CCACHE_DIR:-$hs_cache_dir/ccache}
  CCACHE_BASEDIR=$1
  CCACHE_NOHASHDIR=1
  CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-2G}
  export CCACHE_DIR CCACHE_BASEDIR CCACHE_NOHASHDIR CCACHE_MAXSIZE
  mkdir -p "$CCACHE_DIR" && ccache='ccache '
}

# What configure (and the Makefiles it writes) takes from the
# environment, a line each: part of every key of a configured build.
hs_configure_env ()
{
  for v in CC CFLAGS CPP CPPFLAGS LDFLAGS LIBS FC FCFLAGS CONFIG_SITE; do
    eval "echo \"$v=\${$v-unset}\""
  done
}

hs_configure ()
{
  hs_cf_name=$1 hs_cf_obj=$2 hs_cf_src=$3 hs_cf_base=$4 hs_cf_text=$5 hs_cf_log=$6
  shift 6
  if test "${GOMP_HS_BUILD_CACHES:-yes}" = no; then
    ( cd "$hs_cf_obj" && "$@" ) > "$hs_cf_log" 2>&1
    return
  fi
  hs_cf_key=$( { echo "recipe $hs_configure_cache_recipe"
		 sha256sum "$hs_cf_src/configure" "$hs_cf_src/../config.sub" \
		   2> /dev/null | cut -d' ' -f1
		 printf '%s\n' "$hs_cf_text" "$@"
		 hs_configure_env
		 dpkg-query -W -f='${Package} ${Version}\n' libc6-dev binutils \
		   nvptx-tools gcc-12 gcc-12-offload-nvptx gfortran-12 \
		   gcc-14 gcc-14-offload-nvptx gfortran-14 2> /dev/null
	       } | sed "s|$hs_cf_base|@BASEDIR@|g" | sha256sum | cut -c1-16)
  hs_cf_file=$hs_cache_dir/configure/$hs_cf_name-$hs_cf_key.cache
  rm -f "$hs_cf_obj/config.cache"
  if test -f "$hs_cf_file"; then
    sed "s|@BASEDIR@|$hs_cf_base|g" "$hs_cf_file" > "$hs_cf_obj/config.cache"
    echo "[configure-cache] $hs_cf_name: $hs_cf_file" >&2
    ( cd "$hs_cf_obj" && "$@" --cache-file=config.cache ) > "$hs_cf_log" 2>&1 \
      && return 0
    echo "[configure-cache] $hs_cf_name: configure failed with the stored cache; again without it" >&2
    rm -f "$hs_cf_obj/config.cache"
  fi
  ( cd "$hs_cf_obj" && "$@" --cache-file=config.cache ) > "$hs_cf_log" 2>&1 \
    || return
  test -s "$hs_cf_obj/config.cache" && test ! -f "$hs_cf_file" || return 0
  mkdir -p "$(dirname "$hs_cf_file")" \
    && sed "s|$hs_cf_base|@BASEDIR@|g" "$hs_cf_obj/config.cache" > "$hs_cf_file.tmp.$$" \
    && mv "$hs_cf_file.tmp.$$" "$hs_cf_file" \
    || rm -f "$hs_cf_file.tmp.$$"
  return 0
}
