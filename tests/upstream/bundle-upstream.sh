#!/bin/sh
# For the GPU bundle: a subset of the offloading tests of GCC's libgomp
# testsuite, each built twice, with Debian's compiler (NAME.stock.exe, run
# there with Debian's libgomp) and with gomp-gcc (NAME.ours.exe), so that
# the GPU check compares the two runtimes on the device
# (tests/upstream/gpu-upstream.sh, copied into the bundle as run.sh).
# Which tests: libgomp.c/target-*.c, libgomp.c-c++-common/target-*.c,
# libgomp.fortran/target*.f90 and libgomp.oacc-c-c++-common/*.c, those of
# them that 1/UPSTREAM_GPU_SAMPLE (default 2) of the names hash to
# (tests/upstream/select-tests.sh), at most UPSTREAM_GPU_MAX (default 60)
# of them, and only the plain ones: "dg-do run" (the default) without a
# target selector, no extra sources or files, no expected output or
# failure, no effective-target requirement or skip (DejaGnu decides those;
# the device machine has none).  Built at -O2 with the options the .exp
# file adds and the test's dg-options / dg-additional-options.
# Usage: bundle-upstream.sh TOP GCC_SRC STAGE DEST
top=$1 gcc_src=$2 stage=$3 dest=$4
gcc_src=$(cd "$gcc_src" && pwd) && stage=$(cd "$stage" && pwd) \
  && top=$(cd "$top" && pwd) || exit 1
ts=$gcc_src/libgomp/testsuite
here=$top/tests/upstream
isa=${UPSTREAM_PTX_ISA:-sm_80}
test -d "$ts" || { echo "[gpu-bundle] upstream: no testsuite in $gcc_src" >&2; exit 1; }
major=$(sed 's/\..*//' "$gcc_src/gcc/BASE-VER")
stock=${STOCK_CC:-gcc-$major}
rm -rf "$dest"
mkdir -p "$dest"
: > "$dest/tests.txt"
n=0 skipped=0
for rel in $(sh "$here/select-tests.sh" "$ts" "${UPSTREAM_GPU_SAMPLE:-2}" \
	     | grep -E '^(libgomp\.c/target-[^/]*\.c|libgomp\.c-c\+\+-common/target-[^/]*\.c|libgomp\.fortran/target[^/]*\.f90|libgomp\.oacc-c-c\+\+-common/[^/]*\.c)$'); do
  test "$n" -ge "${UPSTREAM_GPU_MAX:-60}" && break
  src=$ts/$rel
  if grep -q -E 'dg-(additional-sources|additional-files|shouldfail|output|require-effective-target|skip-if|xfail-run-if|xfail-if|set-target-env-var|error|warning)' "$src" \
     || grep -E 'dg-do ' "$src" | grep -q -v -E 'dg-do run \}' \
     || grep -E 'dg-(additional-)?options ' "$src" | grep -q -E '\{ *target|\{ *!|\{ *\*'; then
    skipped=$((skipped + 1))
    continue
  fi
  opts=$(sed -n 's/.*{ dg-options "\(.*\)" }.*/\1/p' "$src" | tr '\n' ' ')
  add=$(sed -n 's/.*{ dg-additional-options "\(.*\)" }.*/\1/p' "$src" | tr '\n' ' ')
  case $rel in
    libgomp.oacc-*) base="-fopenacc -foffload=nvptx-none -DACC_DEVICE_TYPE_nvidia=1 -DACC_MEM_SHARED=0 -I$ts/libgomp.oacc-c-c++-common" ;;
    *) base="-fopenmp" ;;
  esac
  case $rel in
    *.f90) libs="-lgfortran -foffload=-lgfortran -lm" ;;
    *) libs="-lm" ;;
  esac
  name=$(echo "$rel" | sed 's,/,--,g; s,\.[^.]*$,,')
  flags="$base -I$ts/../../include -I$ts/.. -foffload-options=nvptx-none=-misa=$isa ${opts:--O2} $add"
  # shellcheck disable=SC2086
  if (cd "$dest" && "$stock" $flags "$src" $libs -o "$name.stock.exe") \
       > "$dest/$name.stock.log" 2>&1 \
     && (cd "$dest" && "$stage/bin/gomp-gcc" $flags "$src" $libs -o "$name.ours.exe") \
       > "$dest/$name.ours.log" 2>&1; then
    echo "$name $rel" >> "$dest/tests.txt"
    rm -f "$dest/$name.stock.log" "$dest/$name.ours.log"
    n=$((n + 1))
  else
    # Not built by one of the two: the host comparison reports it.
    rm -f "$dest/$name".*.exe
    skipped=$((skipped + 1))
  fi
done
# Which libgomp each side's programs load, on the device machine too.
for side in stock ours; do
  cc=$stock
  test $side = ours && cc=$stage/bin/gomp-gcc
  "$cc" -fopenmp -foffload-options=nvptx-none=-misa=$isa \
    "$here/which-libgomp.c" -o "$dest/which-libgomp.$side.exe" \
    > "$dest/which-libgomp.$side.log" 2>&1 \
    && rm -f "$dest/which-libgomp.$side.log" \
    || echo "[gpu-bundle] upstream: which-libgomp.c does not build with $cc (see $dest/which-libgomp.$side.log)" >&2
done
cp "$here/gpu-upstream.sh" "$dest/run.sh"
echo "[gpu-bundle] upstream: $n tests of GCC's libgomp testsuite built with Debian's compiler and with ours ($skipped not plain or not built)"
