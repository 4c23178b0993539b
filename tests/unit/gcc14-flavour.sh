#!/bin/sh
# The GCC 14 (Debian 13) flavour (build-aux/build-gcc14.sh) against Debian
# 13's own compilers, inside the cached trixie root of
# build-aux/trixie-root.sh: gomp-gcc and gomp-g++ drive Debian's gcc-14 and
# g++-14 and link this flavour's device runtime; the embedded PTX passes
# ptxas and nvlink for sm_90, and its open and write are the host-service
# ones (the module that defines them uses the host-service region), which
# the same check must refuse for Debian's own runtime (the negative case:
# newlib 4.5's stubs, which return -1 or print byte by byte).  The run
# itself is host fallback here (no GPU) and proves only that the program
# loads this flavour's libgomp.so.1.  The checks of the device C library
# (newlib-threads.sh, newlib-writes.sh) run on this flavour's archives too.
# Environment: TOP, STAGE (the GCC 12 stage; the GCC 14 one is beside it
# in gcc-14/stage), WORK, PTXAS, NVLINK, PTX_EXTRACT.
stage14=$(dirname "$STAGE")/gcc-14/stage
# make check records there that make gcc14 failed: what is staged, if
# anything, is not what this tree builds.
if test -f "$(dirname "$STAGE")/gcc-14/build-failed"; then
  echo "FAIL: gcc14: $(cat "$(dirname "$STAGE")/gcc-14/build-failed") ($(basename "$0"))"
  exit 0
fi
w=$WORK/gcc14
rm -rf "$w"; mkdir -p "$w"
if ! test -x "$stage14/bin/gomp-gcc"; then
  echo "UNSUPPORTED: gcc14: no GCC 14 flavour built ($stage14; make gcc14)"
  exit 0
fi
if test "$(id -u)" != 0 || ! unshare --mount true 2> /dev/null; then
  echo "UNSUPPORTED: gcc14: the trixie root needs root that may mount and chroot"
  exit 0
fi
# newlib 4.5's archives: the same checks as newlib 3.3's.
newlib14=$(cat "$(dirname "$STAGE")/gcc-14/newlib-prefix")
for t in newlib-threads newlib-writes; do
  STAGE=$stage14 NEWLIB=$newlib14 WORK=$w sh "$TOP/tests/unit/$t.sh" 2>&1 | sed 's/^\(PASS\|FAIL\|UNSUPPORTED\): /\1: gcc14: /'
done

root=$("$TOP"/build-aux/trixie-root.sh "$w" 2> "$w/root.log" | tail -n 1)
if test -z "$root" || ! test -d "$root/usr/bin"; then
  echo "FAIL: gcc14: no root with gcc-14 (build-aux/trixie-root.sh)"; cat "$w/root.log"
  exit 0
fi
echo "PASS: gcc14: a root with the distribution's own gcc-14 ($(basename "$root"): $(chroot "$root" dpkg-query -W -f '${Version}' gcc-14 2> /dev/null))"

if nm -D "$stage14/lib/libgomp.so.1" | grep -q ' T GOMP_PLUGIN_host_service_init@@GOMP_PLUGIN_1.5$' \
   && nm -D "$stage14/lib/libgomp-plugin-nvptx.so.1" | grep -q ' U GOMP_PLUGIN_host_service_init@GOMP_PLUGIN_1.5$'; then
  echo "PASS: gcc14: libgomp.so.1 exports host services (GOMP_PLUGIN_1.5), the plugin uses them"
else
  echo "FAIL: gcc14: libgomp.so.1 or its plugin lacks GOMP_PLUGIN_host_service_init@GOMP_PLUGIN_1.5"
fi

# GCC's reverse-offload slot is gone from the plugin: GOMP_OFFLOAD_run
# waits for the kernel as for any other, with no usleep poll and no
# GOMP_PLUGIN_target_rev (host services serve the regions).
if nm -D "$stage14/lib/libgomp-plugin-nvptx.so.1" | grep -q ' U \(usleep\|GOMP_PLUGIN_target_rev\)@'; then
  echo "FAIL: gcc14: the plugin still polls GCC's reverse-offload slot (usleep, GOMP_PLUGIN_target_rev)"
else
  echo "PASS: gcc14: the plugin has no reverse-offload poll (no usleep, no GOMP_PLUGIN_target_rev)"
fi

# The GPU bundle's test (tests/offload/gcc14-io.c), which here may run
# in host fallback (--host-ok).
cp "$TOP/tests/offload/gcc14-io.c" "$w/io.c"
cp "$w/io.c" "$w/io.cc"
# Inside the root, the directory of the ptxas the tests use (so that
# nvptx-as verifies with it and gomp-gcc probes it), when there is one.
cuda_bin=
case $PTXAS in
  /*) real=$("$TOP"/build-aux/real-program.sh "$PTXAS") && cuda_bin=$(dirname "$real") ;;
esac
in_root ()
{
  CUDA_BIN=${cuda_bin:-/nonexistent} "$TOP"/build-aux/in-trixie-root.sh "$root" "$w" "$stage14" \
    -- sh -c "cd $w && $*"
}

# Why a step failed, in one line for its FAIL line (the unit log keeps
# only those): the first error in its log, else the log's last line.
why ()  # LOG
{
  l=$(grep -m 1 -E -i 'error|fatal|not found|cannot|denied|No such' "$1")
  test -n "$l" || l=$(grep . "$1" | tail -n 1)
  echo "$l" | cut -c1-300
}

# What Debian 13's glibc headers (2.41) make offloaded code reference
# (the __isoc23_ names, the checkers of strlcpy and strlcat, ...): the
# scan of tests/unit/glibc-abi-scan.sh with gcc-14's preprocessor in the
# root, against this flavour's device libraries.
cp "$TOP/tests/unit/glibc-abi-scan.sh" "$w/glibc-abi-scan.sh"
mkdir -p "$w/abi"
in_root "STAGE=$stage14 HOST_CC=gcc-14 WORK=$w/abi sh $w/glibc-abi-scan.sh" 2>&1 \
  | sed 's/^\(PASS\|FAIL\|UNSUPPORTED\): /\1: gcc14: the root'"'"'s headers: /'

# The device's C23 strtol family against glibc 2.41's own (the unit test
# tests/unit/glibc-c23-strtol.c, built with gcc-14 in the root, where
# glibc has the __isoc23_ functions it compares with).
cp "$TOP/tests/unit/glibc-c23-strtol.c" "$TOP/libgomp/config/nvptx/glibc-abi-strtol.c" "$w/"
in_root "gcc-14 -O2 -Wall -Werror -o c23-strtol glibc-c23-strtol.c && ./c23-strtol" \
  > "$w/c23-strtol.log" 2>&1 || echo "FAIL: gcc14: glibc-c23-strtol.c in the root: $(why "$w/c23-strtol.log")"
glibc=$(in_root "ldd --version" 2> /dev/null | sed -n '1s/.* //p')
sed -n "s/^\(PASS\|FAIL\|UNSUPPORTED\): /\1: gcc14: glibc ${glibc:-?}: /p" "$w/c23-strtol.log"

# Whether this machine can run Debian 13's own offloading compiler in the
# root, with Debian's runtime (none of this project's files): the premise
# of what follows.  First with CUDA's ptxas there (nvptx-as verifies with
# it, gomp-gcc chooses the ISA with it); where it fails only with ptxas,
# the root's compilers go without it and the PTX is checked outside the
# root only; where it fails without it too, nothing here can be tested.
cat > "$w/probe.c" <<'EOF'
int
main (void)
{
  int x = 0;
#pragma omp target map(tofrom: x)
  x = 1;
  return !x;
}
EOF
# The distribution's compilers alone get what their users must add:
# Ubuntu's gcc-14 enables -fcf-protection, which reaches the nvptx
# compiler and fails every offloading link unless it is turned off there,
# and the stack protector, whose nvptx code does not assemble (gomp-gcc
# turns off both).
plain="-foffload-options=-misa=sm_80 -foffload-options=-fcf-protection=none -fno-stack-protector"
probe="gcc-14 -fopenmp $plain probe.c -o probe && ./probe"
if ! in_root "$probe" > "$w/probe.log" 2>&1; then
  if test -n "$cuda_bin" && cp "$w/probe.log" "$w/probe-cuda.log" \
     && cuda_bin= && in_root "$probe" > "$w/probe.log" 2>&1; then
    echo "UNSUPPORTED: gcc14: CUDA's ptxas ($PTXAS) in the trixie root: $(why "$w/probe-cuda.log"); the PTX is checked outside the root only"
  else
    echo "UNSUPPORTED: gcc14: the root's gcc-14 does not build an offloading program in the trixie root on this machine: $(why "$w/probe.log")"
    exit 0
  fi
fi

# Debian's gcc-14 with its own runtime: the negative case of the PTX check.
# Ubuntu's also fortifies by default (-D_FORTIFY_SOURCE=3), whose
# __fprintf_chk and kin its device C library lacks (this flavour's has
# them, tests/unit/glibc-abi-scan.sh): it builds io.c only without.
in_root "gcc-14 -O2 -fopenmp $plain -U_FORTIFY_SOURCE io.c -o io-debian" \
  > "$w/debian.log" 2>&1 || { echo "FAIL: gcc14: the root's gcc-14 does not build io.c: $(why "$w/debian.log")"; cat "$w/debian.log"; }
if in_root "$stage14/bin/gomp-gcc -O2 -fopenmp io.c -o io-ours" > "$w/ours.log" 2>&1; then
  echo "PASS: gcc14: gomp-gcc (the root's gcc-14) builds a target region with fopen/fprintf/open/read"
else
  echo "FAIL: gcc14: gomp-gcc -fopenmp io.c: $(why "$w/ours.log")"; cat "$w/ours.log"
fi
if in_root "$stage14/bin/gomp-g++ -O2 -fopenmp -x c++ io.cc -o io-cxx" > "$w/cxx.log" 2>&1; then
  echo "PASS: gcc14: gomp-g++ (the root's g++-14) builds it as C++"
else
  echo "FAIL: gcc14: gomp-g++ -fopenmp io.cc: $(why "$w/cxx.log")"; cat "$w/cxx.log"
fi

# Success when the PTX modules in DIR pass ptxas and link with nvlink for
# sm_90 (or when CUDA's tools are not there).
ptx_links ()  # DIR
{
  test -n "$PTXAS" && test -n "$NVLINK" || return 0
  sh "$TOP/tests/ptx-link-check.sh" sm_90 "$1/all.cubin" "$1"/module-*.ptx
}

# Success when EXE's PTX links for sm_90 (unless NOLINK is given) and the
# modules that define open and write use __gomp_host_service.
ptx_uses_hs ()  # EXE [NOLINK]
{
  d=$w/$1.ptx nolink=$2
  rm -rf "$d"; mkdir "$d"
  "$PTX_EXTRACT" "$w/$1" "$d" > /dev/null 2>&1
  set -- "$d"/module-*.ptx
  test -f "$1" || { echo "no PTX embedded"; return 1; }
  test -n "$nolink" || ptx_links "$d" || return 1
  for f in open write; do
    m=$(grep -l "^// BEGIN GLOBAL FUNCTION DEF: $f\$" "$d"/module-*.ptx)
    test "$(echo "$m" | grep -c .)" = 1 || { echo "$f defined in $(echo "$m" | grep -c .) modules"; return 1; }
    grep -q '__gomp_host_service' "$m" || { echo "$f is not the host-service one"; return 1; }
  done
  return 0
}
if test -x "$w/io-ours"; then
  if why=$(ptx_uses_hs io-ours); then
    echo "PASS: gcc14: io-ours: ${PTXAS:+PTX valid for sm_90 (ptxas, nvlink), }open and write go to the host"
  else
    echo "FAIL: gcc14: io-ours: $why"
  fi
  if ( cd "$w" && ./io-ours "$w/io.txt" --host-ok ) > "$w/run.out" 2>&1 \
     && grep -qx 'gcc14-io: on the host, fprintf 10, read back "device 14"' "$w/run.out" \
     && ldd "$w/io-ours" | grep -q "$stage14/lib/libgomp.so.1"; then
    echo "PASS: gcc14: io-ours runs with this flavour's libgomp.so.1 (host fallback)"
  else
    echo "FAIL: gcc14: io-ours: $(cat "$w/run.out")"
  fi
fi
if test -x "$w/io-debian"; then
  # (Not linked: Debian's PTX does not link with nvlink for sm_90 either,
  # and the check must fail on open and write, not on that.)
  if why=$(ptx_uses_hs io-debian nolink); then
    echo "FAIL: gcc14: negative case: the root's runtime passed the host-service check"
  else
    echo "PASS: gcc14: negative case: the root's own runtime fails the check ($why)"
  fi
fi

# Fortran: WRITE in a target region, which does not link with Debian 13's
# own runtime (unresolved _gfortran_st_write_done), links with this
# flavour's device libgfortran.
cat > "$w/wr.f90" <<'EOF2'
program wr
  implicit none
  integer :: i
  i = 14
  !$omp target map(to: i)
  write (*, '(a, i0)') 'device ', i
  !$omp end target
end program wr
EOF2
if in_root "gfortran-14 -O2 -fopenmp $plain wr.f90 -o wr-debian" \
     > "$w/f-debian.log" 2>&1; then
  echo "FAIL: gcc14: the root's gfortran-14 links WRITE in a target region: the test's premise is gone"
elif grep -q '_gfortran_st_write' "$w/f-debian.log"; then
  echo "PASS: gcc14: negative case: the root's runtime cannot link WRITE in a target region"
else
  echo "FAIL: gcc14: the root's gfortran-14 failed otherwise: $(why "$w/f-debian.log")"; tail -5 "$w/f-debian.log"
fi
if in_root "$stage14/bin/gomp-gfortran -O2 -fopenmp wr.f90 -o wr-ours" > "$w/f-ours.log" 2>&1; then
  d=$w/wr-ours.ptx
  rm -rf "$d"; mkdir "$d"
  "$PTX_EXTRACT" "$w/wr-ours" "$d" > /dev/null 2>&1
  if ! grep -q "^// BEGIN GLOBAL FUNCTION DEF: _gfortran_st_write_done\$" "$d"/module-*.ptx; then
    echo "FAIL: gcc14: wr-ours: no device _gfortran_st_write_done in the PTX"
  elif why=$(ptx_links "$d"); then
    echo "PASS: gcc14: gomp-gfortran (the root's gfortran-14) links WRITE in a target region (device libgfortran${PTXAS:+; PTX valid for sm_90})"
  else
    echo "FAIL: gcc14: wr-ours: $why"
  fi
  if ( cd "$w" && ./wr-ours ) 2>&1 | grep -qx 'device 14'; then
    echo "PASS: gcc14: wr-ours runs (host fallback)"
  else
    echo "FAIL: gcc14: wr-ours output"
  fi
else
  echo "FAIL: gcc14: gomp-gfortran -fopenmp wr.f90: $(why "$w/f-ours.log")"; tail -20 "$w/f-ours.log"
fi

# Standalone nvptx programs (gomp-nvptx-gcc, gomp-nvptx-gfortran) with
# GCC 14's nvptx compiler and Debian 13's crt0.o and libgcc.a; they run
# only on a GPU (gomp-nvptx-run), so here: built, the client linked in,
# the PTX valid.
for p in sa-stdio.c:gomp-nvptx-gcc sa-fortran.f90:gomp-nvptx-gfortran; do
  f=${p%%:*} drv=${p#*:} name=sa14-${p%%.*}
  cp "$TOP/tests/standalone/$f" "$w/"
  if ! in_root "$stage14/bin/$drv -O2 $f -o $name.exe" > "$w/$name.log" 2>&1; then
    echo "FAIL: gcc14: $drv $f: $(why "$w/$name.log")"; tail -10 "$w/$name.log"
    continue
  fi
  sh "$TOP/tests/ptx-split.sh" "$w/$name.exe" "$w/$name.ptx"
  if ! grep -q '^\.visible \.entry __main' "$w/$name.ptx"/module-*.ptx \
     || ! grep -q 'GLOBAL VAR DEF: __gomp_host_service$' "$w/$name.ptx"/module-*.ptx; then
    echo "FAIL: gcc14: $name: no __main kernel or no host-service client"
  elif why=$(ptx_links "$w/$name.ptx"); then
    echo "PASS: gcc14: $drv builds $f (__main, the host-service client${PTXAS:+, PTX valid for sm_90})"
  else
    echo "FAIL: gcc14: $name: $why"
  fi
done

# make GCC=14 install prefix=DIR: the installed copy, not the stage,
# drives Debian's gcc-14 in the root, with its own rpath and nvptx
# compiler, and no script of it names the build tree.
top_build=$(dirname "$(dirname "$STAGE")")
inst=$w/inst
if ! test -f "$top_build/Makefile"; then
  echo "UNSUPPORTED: gcc14: make GCC=14 install (no Makefile in $top_build)"
elif ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top_build" GCC=14 install \
       prefix="$inst" > "$w/install.log" 2>&1; then
  echo "FAIL: gcc14: make GCC=14 install prefix=DIR: $(why "$w/install.log")"
elif test "$(cat "$inst/libexec/gomp-hs/gcc-version" 2>/dev/null)" != 14; then
  echo "FAIL: gcc14: make GCC=14 install did not install the GCC 14 flavour"
elif l=$(grep -I -l -e "$top_build" "$inst"/bin/* "$inst"/libexec/gomp-hs/* 2>/dev/null); then
  echo "FAIL: gcc14: the install names the build tree: $l"
elif ! in_root "$inst/bin/gomp-gcc -O2 -fopenmp io.c -o io-inst" > "$w/inst.log" 2>&1; then
  echo "FAIL: gcc14: installed gomp-gcc -fopenmp io.c: $(why "$w/inst.log")"
elif ! ( cd "$w" && ./io-inst "$w/io-inst.txt" --host-ok ) > "$w/inst-run.out" 2>&1 \
     || ! grep -qx 'gcc14-io: on the host, fprintf 10, read back "device 14"' "$w/inst-run.out" \
     || ! ldd "$w/io-inst" | grep -q "$inst/lib/libgomp.so.1"; then
  echo "FAIL: gcc14: io-inst: $(cat "$w/inst-run.out"; ldd "$w/io-inst" | grep libgomp)"
elif why=$(ptx_uses_hs io-inst); then
  echo "PASS: gcc14: make GCC=14 install prefix=DIR: its gomp-gcc drives the root's gcc-14 with the installed runtime (${PTXAS:+PTX valid, }open and write go to the host)"
else
  echo "FAIL: gcc14: io-inst: $why"
fi

# GCC 14's own tests of reverse offload and of printing from offloaded
# code (libgomp/testsuite), built with this flavour's drivers and run in
# the root (host fallback: no GPU), where "dg-do run" ones must exit 0
# and print their dg-output.  The two *-nvptx.f90 variants are those GCC
# expects to fail to link for nvptx (its minimal device libgfortran);
# here they must link.  GCC's -misa=sm_35 is left out: gomp-gcc chooses
# an ISA that this ptxas takes.
ts=$(dirname "$STAGE")/gcc-14/gcc-src/libgomp/testsuite
up=$w/upstream
rm -rf "$up"; mkdir -p "$up"
for t in $(grep -v '^#' "$TOP/tests/upstream/gcc14-tests.txt"); do
  lang=${t%%:*} src=$ts/${t#*:}
  name=$lang-$(basename "$src" | sed 's/\.[^.]*$//')
  if ! test -f "$src"; then
    echo "FAIL: gcc14: upstream: no $src"
    continue
  fi
  case $lang in
    c) drv="gomp-gcc -fopenmp" ;;
    cxx) drv="gomp-g++ -fopenmp -x c++" ;;
    acc) drv="gomp-gcc -fopenacc" ;;
    f) drv="gomp-gfortran -fopenmp" ;;
    facc) drv="gomp-gfortran -fopenacc" ;;
  esac
  # The test, its dg-additional-sources and what it includes, copied
  # where the root sees them.
  d=$up/$name.d
  mkdir -p "$d"
  extra=$(sed -n "s/.*dg-additional-sources \([^ ]*\) .*/\1/p; s/^include '\([^']*\)'.*/\1/p" "$src")
  srcs=$d/$(basename "$src")
  cp "$src" "$d/"
  for x in $extra; do cp "$(dirname "$src")/$x" "$d/"; done
  for x in $(sed -n 's/.*dg-additional-sources \([^ ]*\) .*/\1/p' "$src"); do srcs="$srcs $d/$x"; done
  if ! in_root "$stage14/bin/$drv -O2 -I$d $srcs -o $up/$name" \
       > "$up/$name.log" 2>&1; then
    echo "FAIL: gcc14: upstream ${t#*:} ($lang) does not build: $(why "$up/$name.log")"
    continue
  fi
  # A reverse-offload region's GOMP_target_ext goes through host
  # services (gomp_target_rev_fn) and nothing else: it no longer touches
  # GCC's slot (__gomp_rev_offload_var); and the PTX is valid.  (The C
  # reverse-offload-2.c has its region on the host, outside any target
  # region: no device code calls GOMP_target_ext.)
  case $src in
    */reverse-offload-2.c) ;;
    */reverse-offload-*)
      if grep -qi 'omp target device *( *ancestor' "$src"; then
	rm -rf "$up/$name.ptx"; mkdir "$up/$name.ptx"
	"$PTX_EXTRACT" "$up/$name" "$up/$name.ptx" > /dev/null 2>&1
	m=$(grep -l '^// BEGIN GLOBAL FUNCTION DEF: gomp_target_rev_fn$' "$up/$name.ptx"/module-*.ptx 2>/dev/null)
	ext=$(cat "$up/$name.ptx"/module-*.ptx | awk '/^\/\/ BEGIN GLOBAL FUNCTION DEF: GOMP_target_ext$/ { f = 1; next } /^\/\/ BEGIN/ { f = 0 } f')
	if test -z "$m" || ! grep -q '__gomp_host_service' $m \
	   || ! echo "$ext" | grep -q 'call.*gomp_target_rev_fn'; then
	  echo "FAIL: gcc14: upstream ${t#*:} ($lang): GOMP_target_ext does not call gomp_target_rev_fn, or it is not the host-service client"
	elif echo "$ext" | grep -q '__gomp_rev_offload_var'; then
	  echo "FAIL: gcc14: upstream ${t#*:} ($lang): GOMP_target_ext still uses GCC's slot (__gomp_rev_offload_var)"
	elif why=$(ptx_links "$up/$name.ptx"); then
	  echo "PASS: gcc14: upstream ${t#*:} ($lang): GOMP_target_ext runs the region through host services (gomp_target_rev_fn), not GCC's slot${PTXAS:+; PTX valid}"
	else
	  echo "FAIL: gcc14: upstream ${t#*:} ($lang): $why"
	fi
      fi ;;
  esac
  if grep -q 'dg-do link' "$src"; then
    echo "PASS: gcc14: upstream ${t#*:} ($lang) links (GCC: an expected failure for nvptx)"
    continue
  fi
  if ! in_root "$up/$name" > "$up/$name.out" 2>&1; then
    echo "FAIL: gcc14: upstream ${t#*:} ($lang) exits with an error: $(tail -n 1 "$up/$name.out")"
  elif grep -q 'dg-output "The answer is 42' "$src" && ! grep -q 'The answer is 42' "$up/$name.out"; then
    echo "FAIL: gcc14: upstream ${t#*:} ($lang): no \"The answer is 42\" in its output"
  else
    echo "PASS: gcc14: upstream ${t#*:} ($lang) builds and runs (host fallback)"
  fi
done

# The GPU bundle's GCC 14 part (tests/gcc14-bundle.sh; gpu-check.sh runs
# its run.sh): without a GPU its programs must start under trixie's
# loader and runtimes from the bundle, and refuse to run their target
# regions on the host (OMP_TARGET_OFFLOAD=mandatory, which GCC 14's
# libgomp enforces).
if ! sh "$TOP/tests/gcc14-bundle.sh" "$TOP" "$stage14" "$(dirname "$STAGE")/gcc-14/gcc-src" \
     "$w/bundle/gcc14" > "$w/bundle.log" 2>&1; then
  echo "FAIL: gcc14: GPU bundle part: $(why "$w/bundle.log")"
else
  sh "$w/bundle/gcc14/run.sh" > "$w/bundle-run.out" 2>&1
  n=$(ls "$w/bundle/gcc14/tests"/*.exe | wc -l)
  refused=$(grep -c 'only the host device is available' "$w/bundle-run.out")
  bad='^  | .*\(GLIBC_\|GLIBCXX_\|GFORTRAN_\|cannot open shared\|No such file\)'
  if grep -q "$bad" "$w/bundle-run.out"; then
    echo "FAIL: gcc14: GPU bundle part: a program does not start: $(grep -m 1 "$bad" "$w/bundle-run.out")"
  elif ! grep -q '^FAIL: gcc14-io ' "$w/bundle-run.out" || test "$refused" -lt 10; then
    echo "FAIL: gcc14: GPU bundle part: its $n programs did not refuse host fallback ($refused did)"
  else
    echo "PASS: gcc14: GPU bundle part: $n programs, which start from the bundle and refuse host fallback ($refused; OpenACC falls back)"
  fi
fi
