#!/bin/sh
# GCC's own libgomp testsuite, run twice with GCC's own .exp files: with
# Debian's stock compiler and runtime (gcc-N, libgomp1, gcc-N-offload-nvptx)
# and with this project's install tree (gomp-gcc: our libgomp.so.1 and
# device libraries), both offloading to nvptx; then the two .sum files are
# compared test by test (tests/upstream/compare-sums.sh).
#
# Usage: run-upstream.sh TOP_SRCDIR GCC_SRC STAGE WORKDIR
#   GCC_SRC  the GCC source tree the build uses (build/gcc-src): its
#            libgomp/testsuite runs, its gcc/BASE-VER names the stock
#            compilers (gcc-12 for 12.2.0).
# Environment:
#   UPSTREAM_SAMPLE  1 (default): every test; N: the tests whose name
#                    hashes to 0 mod N (tests/upstream/select-tests.sh),
#                    plus tests/upstream/always.txt
#   UPSTREAM_TESTS   instead of a sample, these test paths (relative to the
#                    testsuite, globs allowed: "libgomp.c/target-*.c")
#   UPSTREAM_JOBS    2: run the two sides side by side (default 1: one after
#                    the other, so that each side's time is its own)
#   UPSTREAM_PTX_ISA -misa for offloaded code on both sides (default sm_80:
#                    GCC 12's default sm_30 fails CUDA 13's ptxas).  Both
#                    sides also get -fno-stack-protector and, for the
#                    offloaded code, -fcf-protection=none, as gomp-gcc
#                    passes them: Ubuntu's gcc-14 enables both by default,
#                    and then links no offloading program; elsewhere they
#                    are the default.
#   UPSTREAM_STOCK_PRUNE 0: leave Debian's side as it is; 1 (default): take
#                    out of its messages the two linker warnings that Debian
#                    12's non-PIC crtoffloadtable.o causes in every
#                    offloading test (tests/upstream/stock-cc.sh), so that
#                    its "test for excess errors" results mean something
#   UPSTREAM_STOCK_CACHE a directory: Debian's side is run once per set
#                    of its inputs and kept there (tests/upstream/
#                    stock-cache.sh says which); a later run with the same
#                    inputs takes its results from there, and with
#                    UPSTREAM_JOBS=2 runs ours in two halves side by side
#                    instead.  Unset (default) or "no": both sides run
#   UPSTREAM_COMPILE_MEMO a directory: our side's compiles go through
#                    tests/compile-memo.sh, which keeps what each command
#                    made there and makes it again for the same command
#                    with the same inputs (the stage's compilers, device
#                    libraries and headers; libgomp.so.1's interface, not
#                    its code); the test programs still run, against
#                    this build's runtime.  Unset (default) or "no": every
#                    compile runs
#   RUNTEST, STOCK_CC, STOCK_CXX, STOCK_FC (default gcc-N, g++-N, gfortran-N)
# Output: PASS:/FAIL:/UNSUPPORTED: lines (one FAIL line per regression) and,
# last, "upstream: N results, P pass with Debian's, Q pass with ours,
# R regressions".  Exit status 1 when a regression or a set-up check fails.
# WORKDIR/{stock,ours} keep each side's libgomp.sum and libgomp.log;
# WORKDIR/summary.txt the comparison and the times.
top=$1
gcc_src=$2
stage=$3
work=$4
if test $# -ne 4; then
  echo "usage: run-upstream.sh TOP_SRCDIR GCC_SRC STAGE WORKDIR" >&2
  exit 2
fi
gcc_src=$(cd "$gcc_src" 2>/dev/null && pwd) || gcc_src=$2
stage=$(cd "$stage" 2>/dev/null && pwd) || stage=$3
top=$(cd "$top" 2>/dev/null && pwd) || top=$1
runtest=${RUNTEST:-runtest}
sample=${UPSTREAM_SAMPLE:-1}
jobs=${UPSTREAM_JOBS:-1}
isa=${UPSTREAM_PTX_ISA:-sm_80}
here=$top/tests/upstream
ts=$gcc_src/libgomp/testsuite

fatal ()
{
  echo "FAIL: upstream: $*"
  echo "upstream: 0 results, 0 pass with Debian's, 0 pass with ours, 1 regressions"
  exit 1
}

test -d "$ts/lib" && test -f "$gcc_src/gcc/BASE-VER" \
  || fatal "no libgomp testsuite in $gcc_src (build first: make)"
version=$(cat "$gcc_src/gcc/BASE-VER")
major=${version%%.*}
stock_cc=${STOCK_CC:-gcc-$major}
stock_cxx=${STOCK_CXX:-g++-$major}
stock_fc=${STOCK_FC:-gfortran-$major}
for t in "$stock_cc" "$stock_cxx" "$stock_fc" \
	 "x86_64-linux-gnu-accel-nvptx-none-gcc-$major" "$runtest"; do
  command -v "$t" > /dev/null 2>&1 \
    || fatal "$t not found (Debian's gcc-$major, g++-$major, gfortran-$major, gcc-$major-offload-nvptx, dejagnu)"
done
for t in gomp-gcc gomp-g++ gomp-gfortran; do
  test -x "$stage/bin/$t" || fatal "$stage/bin/$t missing (build first: make)"
done

rm -rf "$work"
mkdir -p "$work/stock" "$work/ours" || fatal "cannot create $work"
work=$(cd "$work" && pwd)

# The tests this run takes, and the arguments that select them: one
# "NAME.exp=PATTERNS" per .exp file name (c.exp serves libgomp.c and
# libgomp.oacc-c, ...); the patterns name directories, so each .exp takes
# only its own.  A full run passes none and runs everything the .exp files
# find; tests that cannot run from an installed tree still run then, and the
# comparison counts them as UNSUPPORTED on both sides.
excluded_all=$here/excluded.txt
excluded=$work/excluded.txt
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$excluded_all" > "$work/excluded-all.txt"
if test -n "$UPSTREAM_TESTS"; then
  (cd "$ts" && for p in $UPSTREAM_TESTS; do
     for f in $p; do test -f "$f" && echo "$f"; done
   done) > "$work/selected.txt"
  what="UPSTREAM_TESTS ($(echo $UPSTREAM_TESTS | wc -w) patterns)"
elif test "$sample" != 1; then
  sh "$here/select-tests.sh" "$ts" "$sample" "$here/always.txt" \
    > "$work/selected.txt" || fatal "select-tests.sh failed"
  what="sample 1/$sample of each directory + always.txt"
else
  sh "$here/select-tests.sh" "$ts" 1 > "$work/selected.txt" \
    || fatal "select-tests.sh failed"
  what="every test"
fi
ntests=$(wc -l < "$work/selected.txt")
test "$ntests" -gt 0 || fatal "no test selected ($what)"
if test -n "$UPSTREAM_TESTS" || test "$sample" != 1; then
  # Excluded tests outside the selection do not count; those inside do not run.
  awk 'f == 1 { sel[$1] = 1; next } ($1 in sel)' \
    f=1 "$work/selected.txt" f=2 "$work/excluded-all.txt" > "$excluded"
  awk 'f == 1 { x[$1] = 1; next } !($1 in x)' \
    f=1 "$excluded" f=2 "$work/selected.txt" > "$work/run.txt"
  test -s "$work/run.txt" || fatal "every selected test is excluded ($what)"
  exp_files=$(cd "$ts" && ls libgomp.*/*.exp | sed 's,.*/,,' | sort -u)
  # The runtest arguments for the tests in LIST (a file, one a line),
  # one a line.
  exp_args ()  # LIST
  {
    list=$(tr '\n' ' ' < "$1")
    for e in $exp_files; do
      printf '%s\n' "$e=$list"
    done
  }
  exp_args "$work/run.txt" > "$work/args.txt"
  set --
  while IFS= read -r a; do set -- "$@" "$a"; done < "$work/args.txt"
else
  cp "$work/excluded-all.txt" "$excluded"
  set --
fi

# The options both sides' tests get (UPSTREAM_PTX_ISA above).
side_opts="-foffload-options=nvptx-none=-misa=$isa -foffload-options=nvptx-none=-fcf-protection=none -fno-stack-protector"

# Each side's objdir: a site.exp naming the compilers under test, and the
# libgomp-test-support.exp that GCC's configure would have written.  No
# blddir: libgomp.exp then runs in installed-compiler mode (no -B into a
# build tree, no .libs in LD_LIBRARY_PATH).
setup_side ()
{
  dir=$1 cc=$2 cxx=$3 fc=$4
  cat > "$dir/site.exp" <<EOF
# Written by tests/upstream/run-upstream.sh for GCC $version's libgomp testsuite.
set srcdir "$ts"
set objdir "$dir"
set tmpdir "$dir"
set tool libgomp
set build_triplet x86_64-pc-linux-gnu
set host_triplet x86_64-pc-linux-gnu
set target_triplet x86_64-pc-linux-gnu
set build_alias ""
set host_alias ""
set target_alias ""
set GCC_UNDER_TEST "$cc"
set GXX_UNDER_TEST "$cxx"
set GFORTRAN_UNDER_TEST "$fc"
EOF
  cat > "$dir/libgomp-test-support.exp" <<EOF
set cuda_driver_include ""
set cuda_driver_lib ""
set hsa_runtime_lib ""
set offload_plugins "nvptx"
set offload_targets "nvptx-none"
set offload_additional_options "$side_opts"
set offload_additional_lib_paths ""
EOF
}
stock_under_test=$stock_cc
if test "${UPSTREAM_STOCK_PRUNE:-1}" = 1; then
  mkdir -p "$work/bin"
  cp "$here/stock-cc.sh" "$work/bin/stock-cc" && chmod +x "$work/bin/stock-cc" \
    || fatal "cannot install $work/bin/stock-cc"
  STOCK_CC_REAL=$(command -v "$stock_cc")
  STOCK_CC_PRUNED=$work/stock/pruned-links.txt
  export STOCK_CC_REAL STOCK_CC_PRUNED
  : > "$STOCK_CC_PRUNED"
  stock_under_test=$work/bin/stock-cc
fi
setup_side "$work/stock" "$stock_under_test" "$stock_cxx" "$stock_fc"
# Our side's drivers: the stage's, or each through the compile memory.
ours_cc=$stage/bin/gomp-gcc ours_cxx=$stage/bin/gomp-g++
ours_fc=$stage/bin/gomp-gfortran
compile_memo=${UPSTREAM_COMPILE_MEMO:-no}
if test "$compile_memo" != no; then
  if mkdir -p "$compile_memo" \
     && COMPILE_MEMO_DIGEST=$(sh "$top/tests/compile-memo.sh" --digest "$stage" \
			      "$ts" "$gcc_src/include" "$gcc_src"/libgomp/*.h \
			      "$gcc_src/gcc/testsuite/c-c++-common/goacc" \
			      "$gcc_src/gcc/testsuite/g++.dg/goacc" \
			      "$gcc_src/gcc/testsuite/gfortran.dg/goacc"); then
    COMPILE_MEMO=$(cd "$compile_memo" && pwd -P)
    COMPILE_MEMO_IGNORE="libgomp.log libgomp.sum runtest.out"
    COMPILE_MEMO_STATS=$work/compile-memo.txt
    : > "$COMPILE_MEMO_STATS"
    export COMPILE_MEMO COMPILE_MEMO_DIGEST COMPILE_MEMO_IGNORE COMPILE_MEMO_STATS
    mkdir -p "$work/bin"
    for d in gomp-gcc gomp-g++ gomp-gfortran; do
      printf "#!/bin/sh\nexec sh '%s' '%s' \"\$@\"\n" "$top/tests/compile-memo.sh" \
	"$stage/bin/$d" > "$work/bin/memo-$d" && chmod +x "$work/bin/memo-$d" \
	|| fatal "cannot write $work/bin/memo-$d"
    done
    ours_cc=$work/bin/memo-gomp-gcc ours_cxx=$work/bin/memo-gomp-g++
    ours_fc=$work/bin/memo-gomp-gfortran
  else
    echo "[upstream] no compile memory (compile-memo.sh --digest failed): every compile runs"
    compile_memo=no
  fi
fi
setup_side "$work/ours" "$ours_cc" "$ours_cxx" "$ours_fc"

run_side ()
{
  side=$1
  shift
  start=$(date +%s)
  # runtest's process id names its effective-target probes (NAME<pid>.c):
  # the compile memory takes it for a token (tests/compile-memo.sh).  Ours
  # runs whole in ours/ or in halves in ours-1/ and ours-2/ (once Debian's
  # side is cached): the memory knows all three as ours/.
  (cd "$work/$side" \
   && COMPILE_MEMO_CWD=$work/${side%-[12]} && export COMPILE_MEMO_CWD \
   && sh -c 'COMPILE_MEMO_TOKEN=$$; export COMPILE_MEMO_TOKEN; exec "$@"' sh \
	"$runtest" --tool libgomp --srcdir "$ts" "$@") \
    > "$work/$side/runtest.out" 2>&1
  echo $(( $(date +%s) - start )) > "$work/$side/seconds"
}

# Ours in two halves side by side (every other test of run.txt, so that
# each half has its share of every directory), merged into ours/ as one
# run (tests/upstream/merge-sums.sh).
run_ours_halves ()
{
  start=$(date +%s)
  for h in 1 2; do
    mkdir -p "$work/ours-$h"
    setup_side "$work/ours-$h" "$ours_cc" "$ours_cxx" "$ours_fc"
    awk -v h=$h 'NR % 2 == h % 2' "$work/run.txt" > "$work/ours-$h/run.txt"
    (set --
     exp_args "$work/ours-$h/run.txt" > "$work/ours-$h/args.txt"
     while IFS= read -r a; do set -- "$@" "$a"; done < "$work/ours-$h/args.txt"
     run_side "ours-$h" "$@") &
  done
  wait
  s1=$work/ours-1/libgomp.sum s2=$work/ours-2/libgomp.sum
  if test -f "$s1" && test -f "$s2"; then
    sh "$here/merge-sums.sh" "$s1" "$s2" > "$work/ours/libgomp.sum"
  fi
  cat "$work/ours-1/libgomp.log" "$work/ours-2/libgomp.log" \
    > "$work/ours/libgomp.log" 2> /dev/null
  cat "$work/ours-1/runtest.out" "$work/ours-2/runtest.out" \
    > "$work/ours/runtest.out" 2> /dev/null
  echo $(( $(date +%s) - start )) > "$work/ours/seconds"
}

# Debian's side from the cache, when it has this run (stock-cache.sh).
stock_cache=${UPSTREAM_STOCK_CACHE:-no}
stock_key= stock_cached= halves=
if test "$stock_cache" != no; then
  stock_key=$(sh "$here/stock-cache.sh" key "$ts" "$isa" \
		"${UPSTREAM_STOCK_PRUNE:-1}" "$stock_cc" "$stock_cxx" \
		"$stock_fc" "$@") || stock_key=
  if test -n "$stock_key" \
     && sh "$here/stock-cache.sh" restore "$stock_cache" "$stock_key" \
	  "$work/stock" "$ts"; then
    stock_cached=1
    # Halves need the list of tests: a full run has none.
    test "$jobs" -ge 2 && test -s "$work/run.txt" 2> /dev/null && halves=1
  fi
fi

echo "[upstream] GCC $version libgomp testsuite, $what: $ntests sources;" \
  "Debian's $stock_cc${stock_cached:+ (cached: $stock_cache/$stock_key)} and ours ($stage/bin/gomp-gcc${halves:+, in two halves side by side})"
if test -n "$stock_cached"; then
  if test -n "$halves"; then
    run_ours_halves
  else
    run_side ours "$@"
  fi
elif test "$jobs" -ge 2; then
  (run_side stock "$@") &
  (run_side ours "$@") &
  wait
else
  run_side stock "$@"
  run_side ours "$@"
fi
if test -n "$stock_key" && test -z "$stock_cached"; then
  sh "$here/stock-cache.sh" store "$stock_cache" "$stock_key" "$work/stock" "$ts" \
    && echo "[upstream] Debian's side kept for the next run: $stock_cache/$stock_key"
fi
t_stock=$(cat "$work/stock/seconds")
memo_counts=
if test "$compile_memo" != no; then
  memo_counts="$(grep -c -x hit "$COMPILE_MEMO_STATS") from the memory, $(grep -c -x kept "$COMPILE_MEMO_STATS") run and kept, $(grep -c -x ran "$COMPILE_MEMO_STATS") run"
fi
t_ours=$(cat "$work/ours/seconds")

status=0
check () { echo "PASS: upstream: $1"; }
bad () { echo "FAIL: upstream: $1"; status=1; }

for side in stock ours; do
  if test -f "$work/$side/libgomp.sum"; then
    # A harness that found a build tree would put its .libs first and
    # test that instead of the installed runtime.
    if grep '^Executing on host: ' "$work/$side/libgomp.log" \
       | grep -q -e '-B[^ ]*/\.libs'; then
      bad "$side: the harness found a libgomp build directory above $work (blddir); run elsewhere"
    fi
  else
    bad "$side: runtest produced no libgomp.sum (see $work/$side/runtest.out)"
    tail -n 20 "$work/$side/runtest.out"
  fi
done

# Which libgomp.so.1 the programs load: a program built like the tests
# and run with the LD_LIBRARY_PATH the harness set (from its log).  Ours
# must load our install's libgomp (its RUNPATH), Debian's the system one;
# LD_LIBRARY_PATH wins over RUNPATH, so a harness path holding a
# libgomp.so.1 would make both sides run the same runtime.
probe_side ()
{
  side=$1 cc=$2 want=$3
  dir=$work/$side
  ldpath=$(grep '^LD_LIBRARY_PATH=\.' "$dir/libgomp.log" 2>/dev/null | tail -n 1)
  ldpath=${ldpath#LD_LIBRARY_PATH=}
  if test -z "$ldpath"; then
    bad "$side: no LD_LIBRARY_PATH in the harness's log"
    return
  fi
  # shellcheck disable=SC2086
  if ! (cd "$dir" && $cc -fopenmp $side_opts \
	  -o which-libgomp.exe "$here/which-libgomp.c") > "$dir/which-libgomp.out" 2>&1; then
    bad "$side: which-libgomp.c does not build: $(head -n 3 "$dir/which-libgomp.out")"
    return
  fi
  (cd "$dir" && LD_LIBRARY_PATH=$ldpath ./which-libgomp.exe) > "$dir/which-libgomp.run" 2>&1
  got=$(sed -n 's/^libgomp //p' "$dir/which-libgomp.run")
  lddgot=$(cd "$dir" && LD_LIBRARY_PATH=$ldpath ldd ./which-libgomp.exe \
	   | sed -n 's/^[[:space:]]*libgomp\.so\.1 => \([^ ]*\) .*/\1/p')
  lddgot=$(readlink -f "$lddgot")
  plugin=$(sed -n 's/^plugin //p' "$dir/which-libgomp.run")
  if test -n "$got" && test "$got" = "$want" && test "$lddgot" = "$want"; then
    check "$side: programs load $got${plugin:+ (plugin $plugin)}"
  else
    bad "$side: programs load '$got' (ldd: '$lddgot'), not $want, with LD_LIBRARY_PATH=$ldpath"
  fi
  eval "loaded_$side=\$got"
}
want_stock=$(readlink -f "$($stock_cc -print-file-name=libgomp.so)")
want_ours=$(readlink -f "$stage/lib/libgomp.so.1")
probe_side stock "$stock_cc" "$want_stock"
probe_side ours "$stage/bin/gomp-gcc" "$want_ours"
if test -n "$loaded_stock" && test "$loaded_stock" = "$loaded_ours"; then
  bad "both sides ran the same libgomp ($loaded_ours)"
fi

# Every harness-level ERROR (a broken .exp, a missing tool) is a failure of
# its side, whatever the comparison says.
for side in stock ours; do
  if grep -q '^ERROR: ' "$work/$side/runtest.out" 2>/dev/null; then
    bad "$side: runtest reported errors: $(grep '^ERROR: ' "$work/$side/runtest.out" | head -n 3)"
  fi
done

if test -f "$work/stock/libgomp.sum" && test -f "$work/ours/libgomp.sum"; then
  sh "$here/compare-sums.sh" -x "$excluded" -s "$work/ours-1" -s "$work/ours-2" \
    -s "$work/stock" -s "$work/ours" \
    "$work/stock/libgomp.sum" "$work/ours/libgomp.sum" > "$work/compare.txt"
  cmp_status=$?
  test $cmp_status = 0 || status=1
  sed '$d' "$work/compare.txt"
  if test $cmp_status = 0; then
    if grep -q '^upstream: 0 results' "$work/compare.txt"; then
      bad "no results"
    else
      check "no regressions with ours (GCC $version, $what)"
    fi
  fi
else
  echo "upstream: 0 results, 0 pass with Debian's, 0 pass with ours, 1 regressions" \
    > "$work/compare.txt"
fi
{
  echo "GCC $version libgomp testsuite ($ts), $what: $ntests sources"
  echo "Debian's: $stock_cc $(grep -c -E '^[A-Z]+: ' "$work/stock/libgomp.sum" 2>/dev/null) results in $t_stock s${stock_cached:+ (when it was cached)}"
  echo "ours: $stage/bin/gomp-gcc $(grep -c -E '^[A-Z]+: ' "$work/ours/libgomp.sum" 2>/dev/null) results in $t_ours s${halves:+ (two halves side by side)}"
  test -n "$stock_cached" && echo "(Debian's side from the cache: $stock_cache/$stock_key)"
  test "$jobs" -ge 2 && test -z "$stock_cached" && echo "(the two sides ran side by side)"
  test -n "$memo_counts" && echo "ours: compiles $memo_counts ($COMPILE_MEMO)"
  test -f "$work/stock/pruned-links.txt" \
    && echo "Debian's side: the crtoffloadtable.o text-relocation warnings pruned from $(wc -l < "$work/stock/pruned-links.txt") links (tests/upstream/stock-cc.sh)"
  for side in stock ours; do
    echo "$side:"
    sed -n '/=== libgomp Summary ===/,$p' "$work/$side/libgomp.sum" 2>/dev/null \
      | grep '^# of' | sed 's/^/  /'
  done
  cat "$work/compare.txt"
} > "$work/summary.txt"
echo "[upstream] Debian's side ${t_stock} s, ours ${t_ours} s${memo_counts:+ (compiles: $memo_counts)}; summary: $work/summary.txt"
tail -n 1 "$work/compare.txt"
exit $status
